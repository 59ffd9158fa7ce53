/* Temporary: replaced by the sim module. */
#include <stddef.h>
#include "hddscope/cmd.h"
#include "hddscope/preset.h"
__attribute__((weak)) int hd_cmd_sim(int argc, char **argv) { (void)argc; (void)argv; return 2; }
__attribute__((weak)) int hd_cmd_replay(int argc, char **argv) { (void)argc; (void)argv; return 2; }
