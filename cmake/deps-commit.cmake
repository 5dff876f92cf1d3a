# cmake/deps-commit.cmake: moves a library that an ExternalProject installed
# into its build tree's staging folder to its place in the dependency cache,
# in one rename under the cache's lock, and marks it complete
# (complete.stamp). Run with cmake -P after the install:
#   -DSTAGING=<folder installed into> -DPREFIX=<cache entry> -DLOCK=<lock file>
# When another build completed PREFIX meanwhile, that entry is kept and the
# staging folder dropped. An entry without complete.stamp (a build killed
# before this step, or an older layout) is replaced.
foreach(v IN ITEMS STAGING PREFIX LOCK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "deps-commit.cmake: define ${v}")
  endif()
endforeach()
if(NOT IS_DIRECTORY "${STAGING}")
  message(FATAL_ERROR "deps-commit.cmake: ${STAGING} is not a folder")
endif()
file(TOUCH "${STAGING}/complete.stamp")
file(LOCK "${LOCK}" TIMEOUT 1800 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "deps-commit.cmake: cannot lock ${LOCK}: ${rc}")
endif()
if(EXISTS "${PREFIX}/complete.stamp")
  file(REMOVE_RECURSE "${STAGING}")
  message(STATUS "deps: ${PREFIX} was completed by another build; keeping it")
else()
  file(REMOVE_RECURSE "${PREFIX}")
  get_filename_component(parent "${PREFIX}" DIRECTORY)
  file(MAKE_DIRECTORY "${parent}")
  file(RENAME "${STAGING}" "${PREFIX}")
  message(STATUS "deps: installed ${PREFIX}")
endif()
file(LOCK "${LOCK}" RELEASE)
