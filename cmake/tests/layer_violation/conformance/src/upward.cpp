// A conformance source that includes a tool header: the layer check must fail on it.
#include "ssec/live/check.hpp"
