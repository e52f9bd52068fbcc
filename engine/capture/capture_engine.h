// Which server ran a run (a capture of a remote run, the open model when runs go to a server):
// a value type of its own, so the model's description does not need the capture.
#pragma once

#include <string>

namespace octo {

// A run on a remote engine (engine/remote/): which server and model answered. The API key is
// never stored.
struct CaptureEngine {
    std::string url;         // the server's URL, without credentials
    std::string model;       // the server's model id
    std::string fingerprint; // the system_fingerprint it reported ("" when none)
    bool octoscope = false;  // an Octoscope server: the measurements are its extension's
};

} // namespace octo
