// Stand-in for a tool header.
#pragma once
