# TuningTest.cmake - stencilc_add_kernels(... TUNING file) (ctest, cmake -P).
#
#   cmake -DSTENCILC=<stencilc> -DSOURCE_DIR=<Stencilc sources> -DWORK_DIR=<scratch dir>
#         -DNINJA=<ninja> -P TuningTest.cmake
#
# Builds tests/cmake/regen-project with a tuning file holding an entry for
# this machine and blur (put together from `stencilc tune --machine-key` and
# `--stencil-hash`, so that it matches wherever the test runs) and checks that:
#   - blur's kernel has the file's defaults, sharpen's (no entry) the untuned
#     ones, and the build says why sharpen has none;
#   - editing the tuning file regenerates the kernels, blur's with the new entry;
#   - a TUNING or MACHINE naming no file stops CMake with a message;
#   - with MACHINE too (a fixed probe file), sharpen's defaults come from the
#     roofline model on it while blur keeps its entry.

cmake_minimum_required(VERSION 3.20)
foreach(var STENCILC SOURCE_DIR WORK_DIR NINJA)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "TuningTest.cmake: -D${var}=... is missing")
  endif()
endforeach()

set(project_dir "${SOURCE_DIR}/tests/cmake/regen-project")
set(stencils "${WORK_DIR}/stencils")
set(build "${WORK_DIR}/build")
set(tuning "${WORK_DIR}/tuning.json")
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${project_dir}/blur.stencil" "${project_dir}/sharpen.stencil" DESTINATION "${stencils}")

function(fail message)
  message(SEND_ERROR "FAILED: ${message}")
endfunction()

execute_process(COMMAND "${STENCILC}" tune --machine-key OUTPUT_VARIABLE key
                RESULT_VARIABLE status)
execute_process(COMMAND "${STENCILC}" tune --stencil-hash "${stencils}/blur.stencil"
                OUTPUT_VARIABLE hash RESULT_VARIABLE status2)
if(NOT status EQUAL 0 OR NOT status2 EQUAL 0)
  message(FATAL_ERROR "stencilc tune --machine-key or --stencil-hash failed")
endif()
function(write_tuning variant)
  file(WRITE "${tuning}"
    "{\"format\": \"stencilc-tuning 1\", \"machines\": [{\"machine\": ${key}, \"stencils\": "
    "{\"blur\": {\"hash\": ${hash}, \"float\": {\"variant\": \"${variant}\", \"block_y\": 4, "
    "\"block_z\": 0, \"time_depth\": 2, \"time_tile_y\": 16, \"time_tile_z\": 0, "
    "\"gpts_per_s\": 2, \"default_gpts_per_s\": 1, \"size\": [4096, 4096, 1], "
    "\"date\": \"2026-11-24\"}}}}]}\n")
endfunction()

macro(run_ninja step)
  execute_process(COMMAND "${NINJA}" -C "${build}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  string(APPEND output "${errors}")
  message(STATUS "--- ${step}:\n${output}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${step}: the build failed")
  endif()
endmacro()

function(expect_in file regex step)
  file(READ "${build}/stencilc/filters/${file}" text)
  if(NOT text MATCHES "${regex}")
    fail("${step}: ${file} does not match '${regex}'")
  endif()
endfunction()

# Configures the project in ${build} with the cache settings given (the cache keeps earlier ones).
function(configure what)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${project_dir}" -B "${build}" -G Ninja ${ARGN}
                  RESULT_VARIABLE status OUTPUT_QUIET)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cannot configure ${project_dir} with ${what}")
  endif()
endfunction()

write_tuning(planes)
configure(TUNING "-DCMAKE_MAKE_PROGRAM=${NINJA}" -DCMAKE_BUILD_TYPE=Debug
          "-DSTENCILC_EXECUTABLE=${STENCILC}" "-DSTENCILC_SOURCE_DIR=${SOURCE_DIR}"
          "-DSTENCILS_DIR=${stencils}" "-DTUNING_FILE=${tuning}")

run_ninja("first build")
expect_in(blur.h "kDefaultOptions{rt::Variant::Planes, 4, 0, 0, std::nullopt}" "first build")
expect_in(blur.h "kTimeTiling{2, 0, 16, 0}" "first build")
expect_in(sharpen.h "kDefaultOptions{rt::Variant::Auto, 0, 0, 0, std::nullopt}" "first build")
if(NOT output MATCHES "no tuned defaults for stencil 'sharpen' \\(float\\): it has no entry for stencil 'sharpen' on this machine")
  fail("first build: no warning that sharpen has no entry")
endif()

# Ninja's file times: step past their resolution before the edit.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
write_tuning(blocked)
run_ninja("tuning file edited")
if(NOT output MATCHES "Generating cpu kernel blur from")
  fail("tuning file edited: blur was not generated again")
endif()
expect_in(blur.h "kDefaultOptions{rt::Variant::Blocked, 4, 0, 0, std::nullopt}" "tuning file edited")

# A TUNING or MACHINE (stencilc_add_kernels option `option`, the project's -D`variable`) naming
# no file stops CMake with a message naming it.
function(expect_missing_refused option variable)
  string(TOLOWER "${option}" name)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${project_dir}" -B "${WORK_DIR}/missing-${name}" -G Ninja
            "-DCMAKE_MAKE_PROGRAM=${NINJA}" "-DSTENCILC_EXECUTABLE=${STENCILC}"
            "-DSTENCILC_SOURCE_DIR=${SOURCE_DIR}" "-DSTENCILS_DIR=${stencils}"
            "-D${variable}=${WORK_DIR}/no-such-${name}.json"
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(status EQUAL 0)
    fail("a ${option} naming no file was accepted")
  # (CMake wraps the message's lines.)
  elseif(NOT errors MATCHES
         "stencilc_add_kernels: ${option} names no file:[ \n]*[^ \n]*no-such-${name}.json")
    fail("a ${option} naming no file: the message is not there:\n${errors}")
  endif()
endfunction()
expect_missing_refused(TUNING TUNING_FILE)
expect_missing_refused(MACHINE MACHINE_FILE)

# MACHINE beside TUNING: blur keeps its entry, sharpen (none) takes the model's defaults: one step
# per pass, as it advances no time level.
configure(MACHINE "-DMACHINE_FILE=${SOURCE_DIR}/tests/lit/tune/Inputs/probed-cpu.json")
run_ninja("machine file added")
expect_in(blur.h "kDefaultOptions{rt::Variant::Blocked, 4, 0, 0, std::nullopt}" "machine file added")
expect_in(sharpen.h "from the roofline model on probed-cpu.json" "machine file added")
expect_in(sharpen.h "one step per pass \\(output 'v' advances no time level\\)" "machine file added")
expect_in(sharpen.h "kTimeTiling{1, 0, 0, 0}" "machine file added")
