/* Helpers for subcommand option parsing and device opening with uniform messages. */
#ifndef HDDSCOPE_CLI_H
#define HDDSCOPE_CLI_H

#include <stdint.h>

#include "hddscope/dev.h"

/* Parse a size option value; prints "--opt 'arg': reason" and returns -1 on error. */
int hd_opt_size(const char *opt, const char *arg, uint64_t *out);
/* Parse a count option value (a plain non-negative integer). */
int hd_opt_u64(const char *opt, const char *arg, uint64_t *out);
/* Parse a duration (see hd_parse_duration) into nanoseconds. */
int hd_opt_duration(const char *opt, const char *arg, int64_t *ns);

/*
 * Open a device for a subcommand and print the error in the house style.
 * Returns 0 or the exit code to use (HD_EXIT_SETUP).
 */
int hd_open_target(struct hd_dev **d, const char *spec, int flags);

/* Print "Try 'hddscope CMD --help'." after a usage error and return HD_EXIT_USAGE. */
int hd_usage_hint(const char *cmd);

/* A message for an access failure: "read PATH @ OFF: strerror". */
void hd_err_access(const struct hd_dev *d, enum hd_op op, uint64_t off, int rc);

#endif
