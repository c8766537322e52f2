# The repository stands on its own: no source, test or document points outside it (a `shared/` folder beside the
# repository, a tracker's "issue N") or cites the specification by a bare file name instead of docs/spec/.
# Run with -DSOURCE_DIR=<repository root>.
file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.cpp ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.inc ${SOURCE_DIR}/*.md
     ${SOURCE_DIR}/*.cmake ${SOURCE_DIR}/*.txt ${SOURCE_DIR}/Makefile ${SOURCE_DIR}/scripts/*)
set(found "")
foreach(f IN LISTS files)
  if(f MATCHES "^(build|\\.git)" OR f MATCHES "/CMakeFiles/" OR f STREQUAL "tests/source/self_contained.cmake")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${f} hits REGEX "shared/|[Ii]ssue [0-9]|(^|[^/a-z_[(]|(^|[^]])\\()(claims|design|pitfalls|style)\\.md")
  foreach(h IN LISTS hits)
    string(APPEND found "  ${f}: ${h}\n")
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "references outside the repository (write docs/spec/<name>.md, or drop them):\n${found}")
endif()
