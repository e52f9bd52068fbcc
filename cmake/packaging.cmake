# Debian packages with CPack (`cpack` in the build directory; installer/test_packages.sh):
#   octoscope       the workbench, octoscope-cli, the built-in model and resources, a .desktop
#                   entry, the SVG icon and AppStream metadata. Qt, spdlog, QCustomPlot, PCRE2
#                   and xxHash dependencies come from dpkg-shlibdeps; the Qt platform plugins
#                   and CJK fonts, which no binary links, are named here.
#   octoscope-cuda  the CUDA module (lib/octoscope/liboctoscope-cuda.so). No Debian package
#                   owns NVIDIA's cuBLAS or driver, so shlibdeps is off and its dependencies
#                   are written by hand (README: driver and CUDA runtime versions).
install(FILES installer/linux/octoscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
  COMPONENT octoscope)
install(FILES resources/icons/octoscope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
  COMPONENT octoscope)
install(FILES installer/linux/io.github.octoscope.Octoscope.metainfo.xml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT octoscope)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME octoscope)
set(CPACK_PACKAGE_VENDOR "Octoscope developers")
set(CPACK_PACKAGE_CONTACT "Octoscope developers <maintainers@octoscope.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Workbench for debugging prompts and routes in large language models")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_COMPONENTS_ALL octoscope)

set(CPACK_DEBIAN_OCTOSCOPE_PACKAGE_NAME octoscope)
set(CPACK_DEBIAN_OCTOSCOPE_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_OCTOSCOPE_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-noto-cjk")
set(CPACK_DEBIAN_OCTOSCOPE_PACKAGE_RECOMMENDS "qt6-translations-l10n") # Qt's own dialogs in Chinese
set(CPACK_COMPONENT_OCTOSCOPE_DESCRIPTION
  "Runs GGUF models in-process and shows which of eight attention-head subsystems serves each
token, layer x head heatmaps, KV-cache occupancy, latency and the router's decision, with a
prompt advisor. Includes octoscope-cli and the built-in teaching model octet.")

if(OCTOSCOPE_HAVE_CUDA)
  list(APPEND CPACK_COMPONENTS_ALL octoscope-cuda)
  set(CPACK_DEBIAN_OCTOSCOPE-CUDA_PACKAGE_NAME octoscope-cuda)
  set(CPACK_DEBIAN_OCTOSCOPE-CUDA_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_DEBIAN_OCTOSCOPE-CUDA_PACKAGE_DEPENDS "octoscope (= ${PROJECT_VERSION}), libc6 (>= 2.36)")
  set(CPACK_DEBIAN_OCTOSCOPE-CUDA_PACKAGE_SUGGESTS "libcublas-13-0")
  set(CPACK_COMPONENT_OCTOSCOPE-CUDA_DESCRIPTION
    "The CUDA backend module for Octoscope. Needs an NVIDIA driver for CUDA 13 (580 or newer)
and cuBLAS 13 (NVIDIA's CUDA 13 runtime libraries), which no Debian package provides.")
endif()

include(CPack)
