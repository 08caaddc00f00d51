# LiftedKernels.cmake - Kernels of stencils lifted from the legacy corpus (tests/legacy,
# docs/LIFT.md) at build time, so that the kernels of lifted loops meet the same oracle as the
# examples: tests/kernels generates them for the CPU, tests/cuda for CUDA.

# stencilc_lift_and_generate(<program> <float|double> <kernel name> [stencil names...]
#                            BACKEND <cpu|cuda> LIFTED_DIR <dir> GEN_DIR <dir>
#                            [GEN_FLAGS <gen flags...>] [SOURCES <var>] [KERNELS <var>])
# `stencilc lift` of tests/legacy/<program>.cpp into LIFTED_DIR/<program>.stencil, then
# `stencilc gen` of it into GEN_DIR. A program whose nests lift to one stencil gives one kernel,
# <kernel name>. One whose nests lift to several (consecutive nests over different boxes) gives a
# kernel per stencil, each named as its stencil: list them after the name, which then only labels
# the command. The generated sources to compile are appended to SOURCES, the kernels' names to
# KERNELS.
function(stencilc_lift_and_generate program type name)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "BACKEND;LIFTED_DIR;GEN_DIR;SOURCES;KERNELS"
                        "GEN_FLAGS")
  set(source "${PROJECT_SOURCE_DIR}/tests/legacy/${program}.cpp")
  set(stencil "${arg_LIFTED_DIR}/${program}.stencil")
  if(arg_UNPARSED_ARGUMENTS)
    set(kernels ${arg_UNPARSED_ARGUMENTS})
    set(rename "")
  else()
    set(kernels ${name})
    set(rename --name ${name})
  endif()
  # The files gen writes per kernel: the source, and the header that declares the kernel.
  if(arg_BACKEND STREQUAL "cpu")
    set(source_suffix .cpp)
    set(header_suffix .h)
  elseif(arg_BACKEND STREQUAL "cuda")
    set(source_suffix .cu)
    set(header_suffix _cuda.h)
  else()
    message(FATAL_ERROR "stencilc_lift_and_generate: BACKEND is cpu or cuda, not '${arg_BACKEND}'")
  endif()
  set(outputs "")
  set(sources "")
  foreach(kernel ${kernels})
    list(APPEND outputs "${arg_GEN_DIR}/${kernel}${source_suffix}"
         "${arg_GEN_DIR}/${kernel}${header_suffix}")
    list(APPEND sources "${arg_GEN_DIR}/${kernel}${source_suffix}")
  endforeach()
  string(TOUPPER "${arg_BACKEND}" backend_label)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${arg_LIFTED_DIR}"
    COMMAND stencilc lift "${source}" -o "${stencil}" -- -std=c++20 -fopenmp
    COMMAND stencilc gen "${stencil}" --backend ${arg_BACKEND} --type ${type} ${rename}
            ${arg_GEN_FLAGS} -o "${arg_GEN_DIR}"
    DEPENDS stencilc "${source}"
    COMMENT "Lifting ${program} and generating ${backend_label} kernel ${name}")
  if(arg_SOURCES)
    set(${arg_SOURCES} ${${arg_SOURCES}} ${sources} PARENT_SCOPE)
  endif()
  if(arg_KERNELS)
    set(${arg_KERNELS} ${${arg_KERNELS}} ${kernels} PARENT_SCOPE)
  endif()
endfunction()

# stencilc_lift_legacy_corpus(<the options of stencilc_lift_and_generate>): the kernels of every
# program of the corpus, each in the type it computes in; SOURCES and KERNELS get all of them.
function(stencilc_lift_legacy_corpus)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SOURCES;KERNELS" "")
  # <program> <type> <kernel name> [stencil names...]
  foreach(program
          "heat2d_legacy float heat2d_legacy_f32"                       # u[j][i], 2D
          "acoustic8_legacy float acoustic8_legacy_f32"                 # in place, IDX()
          "ete37_legacy float ete37_legacy_f32"                         # table c[j][idx]
          "iso3dfd_legacy float iso3dfd_legacy_f32"                     # unrolled radius loop
          "axis_temps_legacy double axis_temps_legacy_f64"              # axis temporaries
          "laplacian_levels_legacy double laplacian_levels_legacy_f64"  # t % 2
          "clamp_legacy float clamp_legacy_f32"                         # min, max, ?:
          "coupled_elastic_legacy double coupled_elastic_legacy_f64"    # 3 outputs
          "decomposed_legacy float decomposed_legacy laplacian_split advance" # = then +=, 2 stencils
          "ete37_radius_legacy float ete37_radius_legacy_f32"           # table, in place
          "staggered_elastic_legacy float staggered_elastic_legacy velocity stress" # 2 nests
          "names_legacy double names_legacy_f64"                        # clashing names
          "heat_pointers_legacy double heat_pointers_legacy_f64"        # raw pointers
          "levels3_legacy float levels3_legacy_f32"                     # three levels
          "pml_legacy float pml_legacy_f32")                            # 2D, a division
    string(REPLACE " " ";" args "${program}")
    stencilc_lift_and_generate(${args} ${ARGN})
  endforeach()
  if(arg_SOURCES)
    set(${arg_SOURCES} ${${arg_SOURCES}} PARENT_SCOPE)
  endif()
  if(arg_KERNELS)
    set(${arg_KERNELS} ${${arg_KERNELS}} PARENT_SCOPE)
  endif()
endfunction()
