/* tumble physics: the contact solver's scalar path, one constraint of a block
 * at a time: the wide solver's maths (contact_solver_lanes.h) in plain C on one
 * lane. */
#include "world.h"

#define LANES 1
#define KERNEL(name) name##_scalar
#include "contact_solver_portable.h"
#include "contact_solver_lanes.h"
#include "joint_solver_lanes.h"

const tb_contact_kernels *tb_contact_kernels_scalar(void) { return &kernels_scalar; }
