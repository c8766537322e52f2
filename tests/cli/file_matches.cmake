# FILE's contents must match the regular expression PATTERN.
file(READ ${FILE} text)
if(NOT text MATCHES "${PATTERN}")
  message(FATAL_ERROR "${FILE} does not match '${PATTERN}'")
endif()
