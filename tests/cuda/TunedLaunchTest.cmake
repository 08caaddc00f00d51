# TunedLaunchTest.cmake - `stencilc tune --backend cuda` to a running kernel (ctest, cmake -P).
#
#   cmake -DSTENCILC=<stencilc> -DSOURCE_DIR=<Stencilc sources> -DWORK_DIR=<scratch dir>
#         -DCXX=<host compiler> -DEMU_LIBRARY=<stencilc_cuda_emu> -DBOOST_CONTEXT=<library>
#         -P TunedLaunchTest.cmake
#
# On the CUDA emulator, whose device is named "Stencilc CPU emulator":
#   - `tune --backend cuda --emulate` writes a tuning file with one device entry for
#     laplacian7, whose launch matched the reference evaluator;
#   - `gen --backend cuda --tuning` puts it in the kernel, and a step given no options
#     launches it: its variant, block, nw and rows; a step given the tuned variant, the
#     same block, nw and rows; a step given another variant, the architecture's defaults;
#   - a planted entry unlike the defaults in variant, block, nw and rows is taken whole;
#   - the same entry under another GPU's name changes nothing here: untuned defaults.

cmake_minimum_required(VERSION 3.20)
foreach(var STENCILC SOURCE_DIR WORK_DIR CXX EMU_LIBRARY BOOST_CONTEXT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "TunedLaunchTest.cmake: -D${var}=... is missing")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(stencil "${SOURCE_DIR}/dsl-examples/laplacian7.stencil")
set(tuning "${WORK_DIR}/tuning.json")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "FAILED: ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("${STENCILC}" tune "${stencil}" --backend cuda --emulate --budget 10 -o "${tuning}")
file(READ "${tuning}" json)
string(JSON devices LENGTH "${json}" devices)
string(JSON name GET "${json}" devices 0 device name)
if(NOT devices EQUAL 1 OR NOT name STREQUAL "Stencilc CPU emulator")
  message(FATAL_ERROR "FAILED: expected one device entry for the emulator:\n${json}")
endif()
foreach(key variant block_x block_y nw rows)
  string(JSON tuned_${key} GET "${json}" devices 0 stencils laplacian7 float ${key})
endforeach()
message(STATUS
        "tuned: ${tuned_variant} ${tuned_block_x} ${tuned_block_y} ${tuned_nw} ${tuned_rows}")

# Builds laplacian7 generated with `tuning_file` and the main; its output in `result`.
function(build_and_run tuning_file dir result)
  run("${STENCILC}" gen "${stencil}" --backend cuda --tuning "${tuning_file}" -o "${dir}")
  run("${CXX}" -std=c++20 -O1 -fopenmp "-I${SOURCE_DIR}/runtime/include" "-I${dir}"
      "-DSTENCILC_TUNED_HEADER=\"laplacian7_cuda.h\""
      "-DSTENCILC_TUNED_NAMESPACE=stencilc_kernels::laplacian7_cuda"
      -x c++ "${dir}/laplacian7.cu" "${SOURCE_DIR}/tests/cuda/TunedLaunchMain.cpp"
      -x none "${EMU_LIBRARY}" "${BOOST_CONTEXT}" -o "${dir}/main")
  run("${dir}/main")
  set(${result} "${out}" PARENT_SCOPE)
endfunction()

build_and_run("${tuning}" "${WORK_DIR}/tuned" launches)
message(STATUS "launches with the emulator's entry:\n${launches}")
string(REGEX MATCH "none ([a-z]+) ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+)" none "${launches}")
if(NOT "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4} ${CMAKE_MATCH_5}"
   STREQUAL "${tuned_variant} ${tuned_block_x} ${tuned_block_y} ${tuned_nw} ${tuned_rows}")
  message(FATAL_ERROR "FAILED: a step given no options does not launch the tuned launch")
endif()
string(REGEX MATCH "\n${tuned_variant} ([a-z]+) ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+)" same
       "${launches}")
if(NOT "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_5}" STREQUAL
   "${tuned_variant} ${tuned_block_x} ${tuned_block_y} ${tuned_rows}")
  message(FATAL_ERROR "FAILED: a step given the tuned variant does not take the tuned block")
endif()

# A launch unlike the defaults in every choice, under the emulator's name: each is taken.
set(planted_json "${json}")
foreach(pair "variant;\"traditional\"" "block_x;64" "block_y;2" "nw;16" "rows;4")
  list(GET pair 0 key)
  list(GET pair 1 value)
  string(JSON planted_json SET "${planted_json}" devices 0 stencils laplacian7 float ${key}
         "${value}")
endforeach()
file(WRITE "${WORK_DIR}/planted.json" "${planted_json}")
build_and_run("${WORK_DIR}/planted.json" "${WORK_DIR}/planted" planted)
message(STATUS "launches with a planted entry, traditional 64 x 2, nw 16, 4 rows:\n${planted}")
foreach(expected "none traditional 64 2 16 4" "traditional traditional 64 2 16 4"
                 "planes planes 32 8 32 1" "gmem gmem 32 8 32 1")
  string(FIND "${planted}" "${expected}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "FAILED: expected the launch '${expected}'")
  endif()
endforeach()

# The architecture's defaults: what a step launches under another GPU's entry.
string(REPLACE "Stencilc CPU emulator" "Some Other GPU" other_json "${json}")
file(WRITE "${WORK_DIR}/other.json" "${other_json}")
build_and_run("${WORK_DIR}/other.json" "${WORK_DIR}/other" untuned)
message(STATUS "launches with another GPU's entry only:\n${untuned}")
string(REGEX MATCH "none ([a-z]+) ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+)" none "${untuned}")
set(defaults "${CMAKE_MATCH_2} ${CMAKE_MATCH_3}")
if(NOT CMAKE_MATCH_1 STREQUAL "gmem")
  message(FATAL_ERROR "FAILED: without an entry for this GPU a step is not gmem")
endif()
# Every variant given alone that is not the tuned one launches the defaults' block.
string(REPLACE "\n" ";" lines "${launches}")
foreach(line ${lines})
  if(line MATCHES "^([a-z]+) ([a-z]+) ([0-9]+) ([0-9]+)" AND NOT CMAKE_MATCH_1 STREQUAL "none"
     AND NOT CMAKE_MATCH_1 STREQUAL tuned_variant)
    if(NOT "${CMAKE_MATCH_3} ${CMAKE_MATCH_4}" STREQUAL defaults)
      message(FATAL_ERROR "FAILED: '${line}': another variant than the tuned one takes the "
                          "tuned block instead of the defaults (${defaults})")
    endif()
  endif()
endforeach()
