# StencilcAddKernels.cmake - stencilc_add_kernels(): kernels generated at build time.
#
#   stencilc_add_kernels(TARGET <target>
#                        STENCILS <file.stencil>...
#                        [BACKENDS cpu [cuda]]         # default: cpu
#                        [TYPE float|double]           # default: each stencil's own
#                        [SPLIT <n>]                   # force n sub-stencil sweeps
#                        [VARIANTS <suffix>=<flags>...] # extra kernels, see below
#                        [TUNING <file.json>]          # CPU defaults from `stencilc tune`
#                        [MACHINE <file.json>]         # else from the model on a probe file
#                        [NATIVE]                      # -march=native for the kernels
#                        [CUDA_EMULATOR]               # cuda kernels on the CPU emulator
#                        [OUTPUT_DIR <dir>])
#
# For every stencil of every file, `stencilc gen` writes <name>.h and
# <name>.cpp (cpu) or <name>_cuda.h and <name>.cu (cuda) into OUTPUT_DIR
# (default <current binary dir>/stencilc/<target>) when the target is built;
# they are added to <target>, OUTPUT_DIR goes on its include path and the
# runtime (Stencilc::runtime) is linked. A kernel is generated again when its
# .stencil file, the stencilc binary or the generation options change, and not
# otherwise. CUDA kernels are generated and compiled only where the CUDA
# language is enabled (project(... CUDA) or enable_language(CUDA)), or, with
# CUDA_EMULATOR, compiled as C++ against the CPU emulator (Stencilc::cuda_emu),
# which runs them without a GPU.
#
# Each VARIANTS entry `<suffix>=<stencilc gen flags>` adds one more kernel per
# stencil, named <name>_<suffix> and generated with those flags, e.g.
# `VARIANTS "split2=--split=2" "f64=--type=double"`. (The CPU schemes naive,
# blocked and planes are all in every kernel: rt::RunOptions picks one at run
# time.)
#
# TUNING passes the tuning file to `stencilc gen --tuning` for the CPU kernels:
# their default variant, tiles and time steps per pass (kDefaultOptions,
# kTimeTiling) come from its entry for the machine that builds them, and they
# are generated again when the file changes. Where no entry matches, gen warns
# and the untuned defaults stay (docs/PERFORMANCE.md "Tuning").
#
# MACHINE passes a `stencilc probe` machine file to `stencilc gen --machine`:
# kernels with no tuning entry take the time steps per pass the roofline model
# picks on it (docs/PERFORMANCE.md "Defaults from the model").
#
# Generated CPU kernels need OpenMP (threads and `omp simd`): the target links
# OpenMP::OpenMP_CXX. They are compiled with -O3 in every configuration but
# Debug, whatever the target's own flags; -march=native, which ties the binary
# to the build machine, only with NATIVE or the cache option
# STENCILC_KERNELS_NATIVE. docs/CMAKE.md has the details.
#
# Works the same from this source tree (add_subdirectory) and from an
# installed package (find_package(Stencilc)): both define the executable
# Stencilc::stencilc and the library Stencilc::runtime.

include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/StencilcStencilNames.cmake")
set_property(GLOBAL PROPERTY STENCILC_CMAKE_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

option(STENCILC_KERNELS_NATIVE
       "Compile generated stencil kernels with -march=native (not portable to other CPUs)" OFF)

# The files `stencilc gen --backend <backend>` writes for kernel <name>.
function(_stencilc_backend_files out_headers out_sources backend name dir)
  if(backend STREQUAL "cpu")
    set(${out_headers} "${dir}/${name}.h" PARENT_SCOPE)
    set(${out_sources} "${dir}/${name}.cpp" PARENT_SCOPE)
  else()
    set(${out_headers} "${dir}/${name}_cuda.h" PARENT_SCOPE)
    set(${out_sources} "${dir}/${name}.cu" PARENT_SCOPE)
  endif()
endfunction()

# The compile options of generated CPU kernels: see the file comment.
function(_stencilc_kernel_compile_options out_var native)
  set(gnu_like "$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang,IntelLLVM>")
  set(options "$<$<AND:${gnu_like},$<NOT:$<CONFIG:Debug>>>:-O3>")
  if(native OR STENCILC_KERNELS_NATIVE)
    include(CheckCXXCompilerFlag)
    check_cxx_compiler_flag(-march=native STENCILC_CXX_HAS_MARCH_NATIVE)
    if(STENCILC_CXX_HAS_MARCH_NATIVE)
      list(APPEND options "$<${gnu_like}:-march=native>")
    else()
      message(WARNING "stencilc_add_kernels: NATIVE ignored, ${CMAKE_CXX_COMPILER_ID} does not "
                      "accept -march=native")
    endif()
  endif()
  set(${out_var} "${options}" PARENT_SCOPE)
endfunction()

function(stencilc_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 arg "NATIVE;CUDA_EMULATOR" "TARGET;TYPE;SPLIT;OUTPUT_DIR;TUNING;MACHINE"
                        "STENCILS;BACKENDS;VARIANTS")
  set(where "stencilc_add_kernels")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR "${where}: TARGET must name an existing target (got '${arg_TARGET}')")
  endif()
  set(target "${arg_TARGET}")
  get_target_property(target_type ${target} TYPE)
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(target_type STREQUAL "INTERFACE_LIBRARY" OR target_type STREQUAL "UTILITY")
    message(FATAL_ERROR "${where}: ${target} is a ${target_type}; it must compile sources")
  endif()
  # A custom command's outputs only reach targets of the directory declaring it.
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "${where}: call it in the directory that creates ${target} (${target_dir})")
  endif()
  if(NOT arg_STENCILS)
    message(FATAL_ERROR "${where}: STENCILS names no .stencil file")
  endif()
  if(NOT arg_BACKENDS)
    set(arg_BACKENDS cpu)
  endif()
  foreach(backend IN LISTS arg_BACKENDS)
    if(NOT backend MATCHES "^(cpu|cuda)$")
      message(FATAL_ERROR "${where}: unknown backend '${backend}'; backends are cpu and cuda")
    endif()
  endforeach()
  if(NOT TARGET Stencilc::stencilc OR NOT TARGET Stencilc::runtime)
    message(FATAL_ERROR "${where}: Stencilc::stencilc and Stencilc::runtime are not defined; "
                        "use find_package(Stencilc) or add_subdirectory(<stencilc source tree>)")
  endif()

  # Options every kernel of this call is generated with.
  set(common_args "")
  if(arg_TYPE)
    if(NOT arg_TYPE MATCHES "^(float|double)$")
      message(FATAL_ERROR "${where}: TYPE must be float or double (got '${arg_TYPE}')")
    endif()
    list(APPEND common_args "--type=${arg_TYPE}")
  endif()
  if(DEFINED arg_SPLIT)
    if(NOT arg_SPLIT MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${where}: SPLIT must be a count of sweeps (got '${arg_SPLIT}')")
    endif()
    list(APPEND common_args "--split=${arg_SPLIT}")
  endif()

  # TUNING and MACHINE name files: absolute paths of files that exist, in `tuning` and `machine`.
  foreach(option TUNING MACHINE)
    string(TOLOWER "${option}" var)
    set(${var} "")
    if(arg_${option})
      get_filename_component(${var} "${arg_${option}}" ABSOLUTE BASE_DIR
                             "${CMAKE_CURRENT_SOURCE_DIR}")
      if(NOT EXISTS "${${var}}" OR IS_DIRECTORY "${${var}}")
        message(FATAL_ERROR "${where}: ${option} names no file: ${${var}}")
      endif()
    endif()
  endforeach()
  # The kernels of one stencil: its own name and, per variant, a suffix and flags.
  set(variant_suffixes "")
  foreach(variant IN LISTS arg_VARIANTS)
    if(variant MATCHES "^(naive|blocked|planes)$")
      message(FATAL_ERROR "${where}: every CPU kernel has the naive, blocked and planes schemes; "
                          "pick one at run time with rt::RunOptions::variant. VARIANTS entries "
                          "are <suffix>=<stencilc gen flags>, e.g. split2=--split=2")
    endif()
    if(NOT variant MATCHES "^([A-Za-z0-9_]+)=(.*)$")
      message(FATAL_ERROR "${where}: VARIANTS entry '${variant}' is not <suffix>=<flags>")
    endif()
    set(suffix "${CMAKE_MATCH_1}")
    separate_arguments(flags UNIX_COMMAND "${CMAKE_MATCH_2}")
    list(APPEND variant_suffixes "${suffix}")
    set(variant_flags_${suffix} "${flags}")
  endforeach()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(arg_CUDA_EMULATOR AND NOT TARGET Stencilc::cuda_emu)
    message(FATAL_ERROR "${where}: CUDA_EMULATOR needs Stencilc::cuda_emu, which this Stencilc "
                        "does not have")
  endif()
  set(backends "")
  foreach(backend IN LISTS arg_BACKENDS)
    if(backend STREQUAL "cuda" AND NOT "CUDA" IN_LIST languages AND NOT arg_CUDA_EMULATOR)
      message(STATUS "${where}(${target}): CUDA is not enabled, so no CUDA kernels are built")
    else()
      list(APPEND backends "${backend}")
    endif()
  endforeach()

  set(dir "${arg_OUTPUT_DIR}")
  if(NOT dir)
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/stencilc/${target}")
  endif()
  get_property(module_dir GLOBAL PROPERTY STENCILC_CMAKE_MODULE_DIR)
  set(stencilc "$<TARGET_FILE:Stencilc::stencilc>")
  # Depend on the binary's file, and inside this tree also on the target so
  # that it is built first (custom command DEPENDS does not follow aliases).
  get_target_property(stencilc_target Stencilc::stencilc ALIASED_TARGET)
  if(NOT stencilc_target)
    set(stencilc_target "")
  endif()

  set(all_headers "")
  set(cpu_sources "")
  set(cuda_sources "")
  set(kernel_names "")
  foreach(stencil IN LISTS arg_STENCILS)
    get_filename_component(stencil "${stencil}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${stencil}")
      message(FATAL_ERROR "${where}: no such file: ${stencil}")
    endif()
    stencilc_stencil_names(names "${stencil}")
    if(NOT names)
      message(FATAL_ERROR "${where}: ${stencil} defines no stencil")
    endif()
    list(LENGTH names count)
    if(variant_suffixes AND count GREATER 1)
      message(FATAL_ERROR "${where}: VARIANTS name kernels with --name, which needs one stencil "
                          "per file; ${stencil} has ${count}")
    endif()
    # Generation re-checks the names against this file; when they change, it
    # touches it and CMake re-runs on the next build (StencilcGenerate.cmake).
    get_filename_component(stem "${stencil}" NAME_WE)
    string(MD5 path_hash "${stencil}")
    string(SUBSTRING "${path_hash}" 0 8 path_hash)
    set(names_stamp "${dir}/names/${stem}-${path_hash}.txt")
    file(CONFIGURE OUTPUT "${names_stamp}" CONTENT "${names}\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${names_stamp}")

    foreach(suffix "" ${variant_suffixes})
      set(gen_args ${common_args})
      set(kernels ${names})
      if(suffix)
        set(kernels "${names}_${suffix}")
        list(APPEND gen_args "--name=${kernels}" ${variant_flags_${suffix}})
      endif()
      foreach(kernel IN LISTS kernels)
        if(kernel IN_LIST kernel_names)
          message(FATAL_ERROR "${where}: two kernels of ${target} are named '${kernel}'")
        endif()
        list(APPEND kernel_names "${kernel}")
      endforeach()
      foreach(backend IN LISTS backends)
        set(backend_args ${gen_args})
        set(tuning_dependency "")
        if(tuning AND backend STREQUAL "cpu")
          list(APPEND backend_args "--tuning=${tuning}")
          set(tuning_dependency "${tuning}")
        endif()
        if(machine AND backend STREQUAL "cpu")
          list(APPEND backend_args "--machine=${machine}")
          list(APPEND tuning_dependency "${machine}")
        endif()
        set(outputs "")
        foreach(kernel IN LISTS kernels)
          _stencilc_backend_files(header source ${backend} ${kernel} "${dir}")
          list(APPEND outputs "${header}" "${source}")
          list(APPEND all_headers "${header}")
          list(APPEND ${backend}_sources "${source}")
        endforeach()
        string(REPLACE ";" "," kernel_list "${kernels}")
        add_custom_command(
          OUTPUT ${outputs}
          COMMAND "${CMAKE_COMMAND}" "-DSTENCILC=${stencilc}" "-DSTENCIL=${stencil}"
                  "-DOUTPUT_DIR=${dir}" "-DGEN_ARGS=--backend=${backend};${backend_args}"
                  "-DEXPECTED_NAMES=${names}" "-DNAMES_STAMP=${names_stamp}"
                  -P "${module_dir}/StencilcGenerate.cmake"
          DEPENDS "${stencil}" ${stencilc_target} "${stencilc}" ${tuning_dependency}
                  "${module_dir}/StencilcGenerate.cmake" "${module_dir}/StencilcStencilNames.cmake"
          COMMENT "Generating ${backend} kernel ${kernel_list} from ${stem}.stencil"
          VERBATIM)
      endforeach()
    endforeach()
  endforeach()

  target_sources(${target} PRIVATE ${all_headers} ${cpu_sources} ${cuda_sources})
  target_include_directories(${target} PUBLIC "${dir}")
  target_link_libraries(${target} PUBLIC Stencilc::runtime)
  if(cpu_sources)
    if(NOT TARGET OpenMP::OpenMP_CXX)
      find_package(OpenMP REQUIRED COMPONENTS CXX)
    endif()
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
    _stencilc_kernel_compile_options(kernel_options "${arg_NATIVE}")
    set_source_files_properties(${cpu_sources} TARGET_DIRECTORY ${target}
                                PROPERTIES COMPILE_OPTIONS "${kernel_options}")
  endif()
  if(cuda_sources AND arg_CUDA_EMULATOR)
    # The same .cu text: stencilc/cuda/Cuda.h turns it into emulator calls
    # under a host compiler.
    set_source_files_properties(${cuda_sources} TARGET_DIRECTORY ${target}
                                PROPERTIES LANGUAGE CXX)
    target_link_libraries(${target} PUBLIC Stencilc::cuda_emu)
  elseif(cuda_sources)
    target_compile_features(${target} PRIVATE cuda_std_20)
  endif()
endfunction()
