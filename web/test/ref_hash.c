/* Prints the world hash of the reference scene that tests/physics/test_math.c
 * pins; `make web-test` runs it in wasm and compares. */
#include <stdio.h>

#include "ref_scene.h"

int main(void)
{
	printf("%016llx\n", (unsigned long long)tb_ref_scene_hash());
	return 0;
}
