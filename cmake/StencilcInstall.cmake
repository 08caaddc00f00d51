# StencilcInstall.cmake - Install rules and the Stencilc CMake package.
#
# Installs the stencilc driver, the runtime (headers and whatever libraries
# runtime/ defines) and the package files, so that another project can
#
#   find_package(Stencilc 0.1 REQUIRED)
#   stencilc_add_kernels(TARGET app STENCILS wave.stencil)
#
# The package defines Stencilc::stencilc (the driver, an imported executable),
# Stencilc::runtime (the header-only runtime) and Stencilc::<name> for each
# runtime library stencilc_<name>. The build tree is a package too
# (<build>/StencilcConfig.cmake), for use without installing.
#
# Layout under the prefix: bin/stencilc, include/stencilc/, lib/ (runtime
# libraries), lib/cmake/Stencilc/ (this package), share/stencilc/ (the
# `stencilc bench` harness). An installed stencilc finds include/ and share/
# relative to itself (compiler/CMakeLists.txt), so the prefix may move.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STENCILC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Stencilc"
    CACHE STRING "Where the Stencilc CMake package goes, relative to the prefix")

# Runtime libraries: the header-only core and any compiled parts (their
# dependencies are looked up again by StencilcConfig.cmake).
set(STENCILC_EXPORTED_RUNTIME_LIBRARIES stencilc_runtime)
foreach(library stencilc_png stencilc_cuda_emu stencilc_cuda_counting)
  if(TARGET ${library})
    list(APPEND STENCILC_EXPORTED_RUNTIME_LIBRARIES ${library})
  endif()
endforeach()
foreach(library IN LISTS STENCILC_EXPORTED_RUNTIME_LIBRARIES)
  string(REGEX REPLACE "^stencilc_" "" export_name "${library}")
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
  # The same names inside this tree (add_subdirectory), e.g. Stencilc::cuda_emu.
  if(NOT TARGET Stencilc::${export_name})
    add_library(Stencilc::${export_name} ALIAS ${library})
  endif()
endforeach()
set_target_properties(stencilc PROPERTIES EXPORT_NAME stencilc)

install(TARGETS stencilc ${STENCILC_EXPORTED_RUNTIME_LIBRARIES}
  EXPORT StencilcTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/runtime/src/bench/BenchHarness.cpp"
              "${PROJECT_SOURCE_DIR}/runtime/src/emulator/EmulateHarness.cpp"
              "${PROJECT_SOURCE_DIR}/runtime/src/cuda/TuneHarness.cpp"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/stencilc")

# The package: StencilcConfig.cmake, its version file, the exported targets
# and the modules behind stencilc_add_kernels.
set(STENCILC_PACKAGE_MODULES
  "${PROJECT_SOURCE_DIR}/cmake/StencilcAddKernels.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/StencilcGenerate.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/StencilcStencilNames.cmake")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/StencilcConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/StencilcConfig.cmake"
  INSTALL_DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
# 0.x: a minor version may break compatibility.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/StencilcConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(EXPORT StencilcTargets
  NAMESPACE Stencilc::
  DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
install(FILES
  "${PROJECT_BINARY_DIR}/StencilcConfig.cmake"
  "${PROJECT_BINARY_DIR}/StencilcConfigVersion.cmake"
  ${STENCILC_PACKAGE_MODULES}
  DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")

# The build tree as a package: the same config beside a copy of the modules
# and targets that point into the build and source trees.
export(EXPORT StencilcTargets
  NAMESPACE Stencilc::
  FILE "${PROJECT_BINARY_DIR}/StencilcTargets.cmake")
foreach(module IN LISTS STENCILC_PACKAGE_MODULES)
  configure_file("${module}" "${PROJECT_BINARY_DIR}" COPYONLY)
endforeach()
