#pragma once
#include "reports/b.hpp"
