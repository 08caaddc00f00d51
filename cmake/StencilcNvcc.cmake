# StencilcNvcc.cmake - nvcc as CMake's CUDA compiler, for the programs built to run on a GPU
# (bench/gpu, and rtm-gpu in examples/rtm).
#
# stencilc_enable_nvcc(): looks for a CUDA compiler, nvcc in the toolkit's standard place
# (/usr/local/cuda/bin, which need not be on PATH) included. Where one is found, enables CUDA,
# finds the toolkit (CUDA::cudart) and builds for sm_80 and sm_90 unless CMAKE_CUDA_ARCHITECTURES
# says otherwise; where none is, CMAKE_CUDA_COMPILER is false and the caller says what that means.
# A macro, not a function: enable_language() and the variables set here (CMAKE_CUDA_*) must take
# effect in the caller's scope.
include(CheckLanguage)

macro(stencilc_enable_nvcc)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX}
     AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # The runtime asks for cxx_std_20, which CMake also applies to CUDA sources; CMake 3.25 does
    # not know nvcc's flag for it (nvcc 12 and later take -std=c++20).
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
  endif()
endmacro()
