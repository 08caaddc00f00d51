# InstalledConsumerTest.cmake - The consumer project against an installed Stencilc (ctest, cmake -P).
#
#   cmake -DSTENCILC_BUILD=<Stencilc build dir> -DSOURCE_DIR=<Stencilc sources>
#         -DWORK_DIR=<scratch dir> -DNINJA=<ninja> -P InstalledConsumerTest.cmake
#
# Installs the build into WORK_DIR/prefix, then configures tests/consumer in a
# build of its own that finds the package through CMAKE_PREFIX_PATH only,
# builds it (stencilc_add_kernels runs the installed stencilc) and runs it: its
# kernels must match its own reference. Last, the installed `stencilc bench`
# must compile against the installed runtime, not the source tree's.
cmake_minimum_required(VERSION 3.20)

foreach(var STENCILC_BUILD SOURCE_DIR WORK_DIR NINJA)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "InstalledConsumerTest.cmake: -D${var}=... is missing")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")

# step(<what> <command>...): runs the command, stops the test if it fails.
function(step what)
  message(STATUS "--- ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "FAILED: ${what} (exit status ${status})")
  endif()
endfunction()

step("install into ${prefix}" "${CMAKE_COMMAND}" --install "${STENCILC_BUILD}" --prefix "${prefix}")
foreach(file bin/stencilc include/stencilc/Kernel.h share/stencilc/BenchHarness.cpp
             lib/cmake/Stencilc/StencilcConfig.cmake lib/cmake/Stencilc/StencilcConfigVersion.cmake
             lib/cmake/Stencilc/StencilcTargets.cmake)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "FAILED: the install has no ${file}")
  endif()
endforeach()

step("configure the consumer"
  "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/consumer" -B "${build}" -G Ninja
  "-DCMAKE_MAKE_PROGRAM=${NINJA}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS "${build}/CMakeCache.txt" found_dir REGEX "^Stencilc_DIR:")
if(NOT found_dir STREQUAL "Stencilc_DIR:PATH=${prefix}/lib/cmake/Stencilc")
  message(FATAL_ERROR "FAILED: the consumer found another Stencilc: ${found_dir}")
endif()
step("build the consumer" "${NINJA}" -C "${build}")
step("run the consumer" "${build}/stencilc_consumer")

# The lookup of the runtime relative to bin/ is what makes an install usable.
message(STATUS "--- the installed stencilc bench")
execute_process(
  COMMAND "${prefix}/bin/stencilc" bench "${SOURCE_DIR}/dsl-examples/heat2d.stencil"
          --size=64 --repeats=1 --in-place=off
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message(STATUS "${output}${errors}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "FAILED: the installed stencilc bench (exit status ${status})")
endif()
string(FIND "${errors}" "against ${prefix}/bin/../include" at)
if(at EQUAL -1)
  message(FATAL_ERROR "FAILED: the installed stencilc bench did not use ${prefix}/include")
endif()
