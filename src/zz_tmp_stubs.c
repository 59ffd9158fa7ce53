/* Temporary: commands being written; each file's strong definition replaces its stub. */
#include "hddscope/cmd.h"
#define STUB(f) __attribute__((weak)) int f(int argc, char **argv) { (void)argc; (void)argv; hd_err("not yet implemented"); return 2; }
STUB(hd_cmd_fit)
