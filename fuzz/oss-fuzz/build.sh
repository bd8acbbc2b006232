#!/bin/bash -eu
# OSS-Fuzz build script for projects/sse-conform: the real build lives upstream.
"$SRC/sse-conform/fuzz/ossfuzz.sh"
