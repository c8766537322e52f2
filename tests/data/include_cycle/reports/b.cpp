#include "reports/b.hpp"
#include "reports/a.hpp"
