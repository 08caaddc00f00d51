# StencilcGenerate.cmake - One build-time `stencilc gen` run for stencilc_add_kernels.
#
# Run as `cmake -P` by the custom command StencilcAddKernels.cmake declares for
# one .stencil file and one backend:
#
#   STENCILC        the stencilc executable
#   STENCIL         the .stencil file
#   OUTPUT_DIR      where the kernels go
#   GEN_ARGS        further `stencilc gen` arguments (;-list)
#   EXPECTED_NAMES  the stencil names CMake found when it last ran (;-list)
#   NAMES_STAMP     a file CMake re-runs itself for when it changes
#
# Files whose text did not change keep their time stamps. Besides running
# stencilc, it checks that the file still defines the stencils
# the build was configured for: after a rename the build would otherwise
# compile stale kernels or miss new ones. On a mismatch it touches NAMES_STAMP,
# so that the next build re-runs CMake, and fails with a message saying so.

cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/StencilcStencilNames.cmake")

foreach(var STENCILC STENCIL OUTPUT_DIR NAMES_STAMP)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "StencilcGenerate.cmake: ${var} is not set")
  endif()
endforeach()

# Generate beside the outputs, then replace only the files whose text changed:
# the build (ninja restat) then recompiles nothing when an edit of the
# .stencil file does not change the generated code, e.g. a comment.
string(MD5 run_id "${STENCIL};${GEN_ARGS}")
set(scratch "${OUTPUT_DIR}/.generating-${run_id}")
file(REMOVE_RECURSE "${scratch}")
execute_process(
  COMMAND "${STENCILC}" gen "${STENCIL}" ${GEN_ARGS} -o "${scratch}"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE_RECURSE "${scratch}")
  # stencilc has printed its diagnostics (file:line:col: error: ...).
  message(FATAL_ERROR "stencilc gen failed on ${STENCIL}")
endif()
file(GLOB generated "${scratch}/*")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different ${generated} "${OUTPUT_DIR}"
                RESULT_VARIABLE status)
file(REMOVE_RECURSE "${scratch}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cannot copy the kernels generated from ${STENCIL} into ${OUTPUT_DIR}")
endif()

stencilc_stencil_names(names "${STENCIL}")
if(NOT names STREQUAL EXPECTED_NAMES)
  file(TOUCH "${NAMES_STAMP}")
  string(REPLACE ";" ", " found "${names}")
  string(REPLACE ";" ", " expected "${EXPECTED_NAMES}")
  message(FATAL_ERROR
    "${STENCIL} now defines the stencils [${found}], but the build was configured for "
    "[${expected}]: build again, and CMake will re-run and pick up the new kernels.")
endif()
