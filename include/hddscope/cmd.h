/*
 * The commands that are not probes (the probes' own are in probe.h).  Each
 * takes the arguments after its name (argv[0] is the command's name) and
 * returns the process exit code (msg.h).
 */
#ifndef HDDSCOPE_CMD_H
#define HDDSCOPE_CMD_H

#include "hddscope/msg.h"

int hd_cmd_profile(int argc, char **argv);
int hd_cmd_fit(int argc, char **argv);
int hd_cmd_compare(int argc, char **argv);
int hd_cmd_table(int argc, char **argv);
int hd_cmd_report(int argc, char **argv);

/*
 * compare's defaults over n profile directories into outdir, findings not
 * printed, PNG charts when charts: what 'hddscope compare DIRS -q -o
 * OUTDIR' does.  Returns its exit code.
 */
int hd_compare_into(const char *const *dirs, size_t n, const char *outdir, int charts);
int hd_cmd_verdict(int argc, char **argv);
int hd_cmd_burnin(int argc, char **argv);
int hd_cmd_info(int argc, char **argv);
int hd_cmd_smart_save(int argc, char **argv);
int hd_cmd_plot(int argc, char **argv);
int hd_cmd_sim(int argc, char **argv);
int hd_cmd_replay(int argc, char **argv);
int hd_cmd_emulate(int argc, char **argv);

/*
 * A profile directory named on the command line: 0, or HD_EXIT_SETUP
 * (printed: "stat DIR: ..." or "DIR: Not a directory") where it is not
 * there or not a directory.  compare, table and report refuse so before
 * anything is written.
 */
int hd_cmd_check_dir(const char *dir);

struct hd_json;
struct hd_dev;
struct hd_identity;
/*
 * The device and everything known of it as a JSON object (member key, or
 * a value where key is NULL): kind, sizes, identity, cache, queue, SMART
 * (with the attribute table when attrs).
 */
void hd_identity_json(struct hd_json *j, const char *key, const struct hd_dev *d, const struct hd_identity *id,
		      int attrs);

#endif
