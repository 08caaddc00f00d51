# FindSegyio.cmake - segyio, the SEG-Y library (Debian: libsegyio-dev).
#
# Debian's package ships a segyio-config.cmake whose imported target names no
# library file, so the header and library are found directly. Defines
# Segyio_FOUND and the imported target Segyio::Segyio.
find_path(Segyio_INCLUDE_DIR segyio/segy.h)
find_library(Segyio_LIBRARY segyio)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Segyio
  REQUIRED_VARS Segyio_LIBRARY Segyio_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "Debian: apt-get install libsegyio-dev (scripts/install-deps.sh)")

if(Segyio_FOUND AND NOT TARGET Segyio::Segyio)
  add_library(Segyio::Segyio UNKNOWN IMPORTED GLOBAL)
  set_target_properties(Segyio::Segyio PROPERTIES
    IMPORTED_LOCATION "${Segyio_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Segyio_INCLUDE_DIR}")
endif()
mark_as_advanced(Segyio_INCLUDE_DIR Segyio_LIBRARY)
