# gpu-bundle: <build>/octoscope-gpu-bundle/ (and a .tar.gz of it) for a GPU machine that has the
# CUDA toolkit and nothing else (tests/gpu/README.md). Only in an OCTOSCOPE_GPU_BUNDLE build.
set(OCTOSCOPE_GPU_BUNDLE_DIR ${PROJECT_BINARY_DIR}/octoscope-gpu-bundle)
set(bundle_targets octoscope-cli gpu_tests fake-cuda-module)
set(cuda_module "")
if(OCTOSCOPE_HAVE_CUDA)
  list(APPEND bundle_targets octoscope-cuda)
  set(cuda_module $<TARGET_FILE:octoscope-cuda>)
endif()
add_custom_target(gpu-bundle
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/gpu/assemble_bundle.sh ${OCTOSCOPE_GPU_BUNDLE_DIR}
    ${PROJECT_SOURCE_DIR} $<TARGET_FILE:octoscope-cli> $<TARGET_FILE:gpu_tests>
    $<TARGET_FILE:fake-cuda-module> "${cuda_module}"
  DEPENDS ${bundle_targets}
  COMMENT "Packing the GPU check bundle into ${OCTOSCOPE_GPU_BUNDLE_DIR}"
  VERBATIM)
