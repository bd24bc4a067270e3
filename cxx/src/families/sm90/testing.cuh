// White-box access to the sm90_mma family for tests and tuning probes (tests/probes/sm90_tuning_probe.cu):
// the kernel template, its instance families, the call plan and the launch. Not part of the library's
// interface; nothing in the library includes it.
#pragma once

#include "families/sm90/plan.cuh"
