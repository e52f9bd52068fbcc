# Third-party libraries, as interface targets the project links to. Normally the system's
# shared libraries (the Debian package's dependencies are computed from them). The GPU check
# bundle (OCTOSCOPE_GPU_BUNDLE, tests/gpu/README.md) runs on a machine with the CUDA toolkit
# and nothing else: there spdlog and fmt are header-only, PCRE2 and xxHash static, and
# libstdc++ and libgcc linked in.
find_package(nlohmann_json 3.10 REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)

add_library(octoscope_spdlog INTERFACE)
add_library(octoscope_pcre2 INTERFACE)
add_library(octoscope_xxhash INTERFACE)
if(OCTOSCOPE_GPU_BUNDLE)
  find_package(fmt REQUIRED)
  find_package(Threads REQUIRED)
  get_target_property(spdlog_headers spdlog::spdlog_header_only INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(octoscope_spdlog INTERFACE ${spdlog_headers})
  target_compile_definitions(octoscope_spdlog INTERFACE SPDLOG_FMT_EXTERNAL)
  target_link_libraries(octoscope_spdlog INTERFACE fmt::fmt-header-only Threads::Threads)
  find_library(OCTOSCOPE_PCRE2_ARCHIVE libpcre2-8.a REQUIRED)
  find_library(OCTOSCOPE_XXHASH_ARCHIVE libxxhash.a REQUIRED)
  target_include_directories(octoscope_pcre2 INTERFACE ${PCRE2_INCLUDE_DIRS})
  target_link_libraries(octoscope_pcre2 INTERFACE ${OCTOSCOPE_PCRE2_ARCHIVE})
  target_include_directories(octoscope_xxhash INTERFACE ${XXHASH_INCLUDE_DIRS})
  target_link_libraries(octoscope_xxhash INTERFACE ${OCTOSCOPE_XXHASH_ARCHIVE})
  add_link_options(-static-libstdc++ -static-libgcc)
else()
  target_link_libraries(octoscope_spdlog INTERFACE spdlog::spdlog)
  target_link_libraries(octoscope_pcre2 INTERFACE PkgConfig::PCRE2)
  target_link_libraries(octoscope_xxhash INTERFACE PkgConfig::XXHASH)
endif()
