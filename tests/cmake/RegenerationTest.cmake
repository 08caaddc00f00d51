# RegenerationTest.cmake - Which kernels a rebuild regenerates (ctest, cmake -P).
#
#   cmake -DSTENCILC=<stencilc> -DSOURCE_DIR=<Stencilc sources> -DWORK_DIR=<scratch dir>
#         -DNINJA=<ninja> -P RegenerationTest.cmake
#
# Builds tests/cmake/regen-project (kernels blur and sharpen, from copies of
# its .stencil files) with Ninja and checks, from what each rebuild runs:
#   - a rebuild with no change runs nothing;
#   - editing blur.stencil regenerates and recompiles blur only;
#   - touching sharpen.stencil (same text) regenerates sharpen, recompiles nothing;
#   - a new stencilc regenerates both, and recompiles nothing when its output is the same;
#   - renaming the stencil in blur.stencil fails the build with a message, and
#     the next build re-runs CMake and compiles the renamed kernel;
#   - none of these edits re-runs CMake but the rename.

cmake_minimum_required(VERSION 3.20)
foreach(var STENCILC SOURCE_DIR WORK_DIR NINJA)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RegenerationTest.cmake: -D${var}=... is missing")
  endif()
endforeach()

set(project_dir "${SOURCE_DIR}/tests/cmake/regen-project")
set(stencils "${WORK_DIR}/stencils")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${project_dir}/blur.stencil" "${project_dir}/sharpen.stencil" DESTINATION "${stencils}")
file(COPY "${STENCILC}" DESTINATION "${WORK_DIR}/bin")
get_filename_component(stencilc_name "${STENCILC}" NAME)
set(stencilc "${WORK_DIR}/bin/${stencilc_name}")

# Failures are reported and the test goes on, so that one run shows them all;
# cmake -P then exits non-zero.
function(fail message)
  message(SEND_ERROR "FAILED: ${message}")
endfunction()

# run_ninja(<step> <expect success: TRUE|FALSE>): runs ninja in the build,
# leaving its output in `output`.
macro(run_ninja step expect_success)
  execute_process(COMMAND "${NINJA}" -C "${build}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  string(APPEND output "${errors}")
  message(STATUS "--- ${step}:\n${output}")
  if(${expect_success} AND NOT status EQUAL 0)
    message(FATAL_ERROR "${step}: the build failed")
  elseif(NOT ${expect_success} AND status EQUAL 0)
    fail("${step}: the build should have failed")
  endif()
endmacro()

# expect(<step> <regex> <count>): `output` matches <regex> <count> times.
function(expect step regex count)
  string(REGEX MATCHALL "${regex}" matches "${output}")
  list(LENGTH matches found)
  if(NOT found EQUAL count)
    fail("${step}: expected ${count} line(s) matching '${regex}', found ${found}")
  endif()
endfunction()

function(expect_nothing_to_do step)
  if(NOT output MATCHES "no work to do")
    fail("${step}: the build should have had nothing to do")
  endif()
endfunction()

# Ninja's file times have a resolution of its file system's; step past it so
# that every edit is newer than what the previous build wrote.
macro(wait_a_moment)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
endmacro()

set(generating "Generating cpu kernel")
set(compiling "Building CXX object")

execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${project_dir}" -B "${build}" -G Ninja
          "-DCMAKE_MAKE_PROGRAM=${NINJA}" -DCMAKE_BUILD_TYPE=Debug
          "-DSTENCILC_EXECUTABLE=${stencilc}" "-DSTENCILC_SOURCE_DIR=${SOURCE_DIR}"
          "-DSTENCILS_DIR=${stencils}"
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cannot configure ${project_dir}")
endif()

run_ninja("first build" TRUE)
expect("first build" "${generating} blur from" 1)
expect("first build" "${generating} sharpen from" 1)
expect("first build" "${compiling}[^\n]*blur\\.cpp" 1)
expect("first build" "${compiling}[^\n]*sharpen\\.cpp" 1)

run_ninja("rebuild, no change" TRUE)
expect_nothing_to_do("rebuild, no change")

wait_a_moment()
file(READ "${stencils}/blur.stencil" text)
string(REPLACE "0.2 *" "0.25 *" edited "${text}")
if(edited STREQUAL text)
  message(FATAL_ERROR "the test's edit of blur.stencil no longer applies")
endif()
file(WRITE "${stencils}/blur.stencil" "${edited}")
run_ninja("blur.stencil edited" TRUE)
expect("blur.stencil edited" "${generating}" 1)
expect("blur.stencil edited" "${generating} blur from" 1)
expect("blur.stencil edited" "${compiling}" 1)
expect("blur.stencil edited" "${compiling}[^\n]*blur\\.cpp" 1)
expect("blur.stencil edited" "Re-running CMake" 0)
if(NOT EXISTS "${build}/stencilc/filters/blur.cpp")
  fail("blur.cpp is not where stencilc_add_kernels puts it")
else()
  file(READ "${build}/stencilc/filters/blur.cpp" kernel)
  if(NOT kernel MATCHES "0\\.25")
    fail("blur.cpp was not regenerated from the edited stencil")
  endif()
endif()

run_ninja("rebuild after the edit" TRUE)
expect_nothing_to_do("rebuild after the edit")

wait_a_moment()
file(TOUCH "${stencils}/sharpen.stencil")
run_ninja("sharpen.stencil touched" TRUE)
expect("sharpen.stencil touched" "${generating}" 1)
expect("sharpen.stencil touched" "${generating} sharpen from" 1)
expect("sharpen.stencil touched" "${compiling}" 0)

wait_a_moment()
file(TOUCH "${stencilc}")
run_ninja("stencilc replaced" TRUE)
expect("stencilc replaced" "${generating}" 2)
expect("stencilc replaced" "${compiling}" 0)

run_ninja("rebuild after the new stencilc" TRUE)
expect_nothing_to_do("rebuild after the new stencilc")

wait_a_moment()
string(REPLACE "stencil blur" "stencil box_blur" renamed "${edited}")
file(WRITE "${stencils}/blur.stencil" "${renamed}")
run_ninja("stencil renamed" FALSE)
# (CMake wraps the message; the words may be split over lines.)
expect("stencil renamed" "now[ \n]+defines[ \n]+the[ \n]+stencils[ \n]+\\[box_blur\\]" 1)
run_ninja("build after the rename" TRUE)
expect("build after the rename" "Re-running CMake" 1)
expect("build after the rename" "${generating} box_blur from" 1)
expect("build after the rename" "${compiling}[^\n]*box_blur\\.cpp" 1)
expect("build after the rename" "${generating} sharpen" 0)
run_ninja("rebuild after the rename" TRUE)
expect_nothing_to_do("rebuild after the rename")
