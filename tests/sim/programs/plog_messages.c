/* Starts the runtime and calls a function the simulator does not support (aclmdlInitDump):
 * the simulator logs a warning, which goes to stderr and to CANN's process log. */
#include <stdio.h>

#include "acl/acl.h"

int main(void) {
    printf("init=%d\n", (int)aclInit(NULL));
    printf("set_device=%d\n", (int)aclrtSetDevice(0));
    printf("dump=%d\n", (int)aclmdlInitDump());
    printf("finalize=%d\n", (int)aclFinalize());
    return 0;
}
