// Value-or-error type used by every fallible public engine call.
// Public engine calls never throw: they return Result<T>, whose error carries a
// code (what kind of failure) and a one-line human-readable message.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace octo {

enum class ErrorCode {
    Io,              // file could not be opened, read or mapped
    Format,          // bytes do not follow the file format (GGUF, capture ...)
    Unsupported,     // well-formed, but uses something the engine cannot run
    InvalidModel,    // well-formed file whose contents are inconsistent
    Tokenizer,       // tokenizer metadata unusable, or text cannot be encoded
    InvalidArgument, // caller passed a bad value
    OutOfMemory,     // estimate or allocation exceeds what is available
    Cancelled,       // the caller asked to stop
    Device,          // a compute device failed (CUDA error, lost device)
};

const char* error_code_name(ErrorCode code);

struct Error {
    ErrorCode code;
    std::string message;
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

// Result<void>: success carries no value.
struct Ok {};
using Status = Result<Ok>;

inline Error make_error(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

} // namespace octo
