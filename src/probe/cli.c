/*
 * Subcommand plumbing: option values with range checks and one-line
 * errors, device opening with messages that name the object and the call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/util.h"

int hd_opt_size(const char *opt, const char *arg, uint64_t *out)
{
	int rc = hd_parse_size(arg, out);

	if (rc) {
		hd_err("%s '%s': %s (sizes are bytes with an optional k, m, g or t suffix)", opt, arg,
		       arg[0] == '-' ? "must not be negative" : hd_parse_strerror(rc));
		return -1;
	}
	return 0;
}

int hd_opt_u64(const char *opt, const char *arg, uint64_t *out)
{
	int rc = hd_parse_u64(arg, out);

	if (rc) {
		hd_err("%s '%s': %s", opt, arg, arg[0] == '-' ? "must not be negative" : hd_parse_strerror(rc));
		return -1;
	}
	return 0;
}

int hd_opt_duration(const char *opt, const char *arg, int64_t *ns)
{
	int rc = hd_parse_duration(arg, ns);

	if (rc == -ERANGE)
		hd_err("%s '%s': must be between 1ns and %.0fs", opt, arg, HD_DURATION_MAX_NS / 1e9);
	else if (rc)
		hd_err("%s '%s': must be a positive duration such as 3s, 500ms or 2m", opt, arg);
	return rc ? -1 : 0;
}

int hd_open_target(struct hd_dev **d, const char *spec, int flags)
{
	char err[4352];

	if (hd_dev_open(d, spec, flags, err, sizeof(err)) == 0)
		return 0;
	hd_err("%s", err);
	return HD_EXIT_SETUP;
}

int hd_usage_hint(const char *cmd)
{
	fprintf(stderr, "Try 'hddscope %s --help'.\n", cmd);
	return HD_EXIT_USAGE;
}

void hd_err_access(const struct hd_dev *d, enum hd_op op, uint64_t off, int rc)
{
	hd_err("%s %s @ %llu: %s", hd_op_name(op), d->path, (unsigned long long)off, strerror(-rc));
}
