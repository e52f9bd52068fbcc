// The machine and build a bug report describes: OS, CPU, cores, RAM, GPU, Qt and compiler.
#pragma once

#include <QString>

namespace octo::ui {

struct SystemInfo {
    QString os;        // e.g. "Debian GNU/Linux 12 (bookworm), kernel 6.1.0 (x86_64)"
    QString cpu;       // the CPU's model name ("unknown" when the system does not say)
    int cores = 0;     // logical cores
    QString ram;       // total memory, e.g. "15.6 GiB" ("unknown" when the system does not say)
    QString gpu;       // NVIDIA GPUs the driver lists, or "none detected"
    QString qt;        // runtime and build versions
    QString compiler;  // the compiler that built the app
};

SystemInfo system_info();

} // namespace octo::ui
