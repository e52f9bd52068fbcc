#include "tests/gpu/gpu_backend.h"

#include "engine/backend/cuda/cuda_backend.h"

namespace octo::test {

std::unique_ptr<Backend> make_cuda_backend(std::string& reason) {
    auto b = CudaBackend::create();
    if (!b) {
        reason = b.error().message;
        return nullptr;
    }
    return std::move(b.value());
}

std::unique_ptr<Backend> make_cpu_backend() {
    auto b = CpuBackend::create({1, {}});
    return b ? std::move(b.value()) : nullptr;
}

std::unique_ptr<DeviceBuffer> upload(Backend& b, std::span<const float> host) {
    auto buf = b.allocate(static_cast<int64_t>(host.size()));
    b.write(host, buf->data());
    return buf;
}

std::vector<float> download(Backend& b, DeviceBuffer& buf) {
    std::vector<float> host(static_cast<size_t>(buf.size()));
    b.read(buf.data(), host);
    return host;
}

} // namespace octo::test
