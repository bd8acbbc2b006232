// A certify source that includes differential fuzzing, its sibling of the same
// rank: the layer check must fail on it too.
#include "ssec/differential/fuzzer.hpp"
