#!/bin/bash -eu
"$SRC/sse-conform/fuzz/ossfuzz.sh"
