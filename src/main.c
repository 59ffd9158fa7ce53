/*
 * hddscope: characterize spinning hard disks from the host side.
 * This file only dispatches to subcommands; each owns its options.
 */
#include <stdio.h>
#include <string.h>

#include "hddscope/cmd.h"
#include "hddscope/dev.h"
#include "hddscope/probe.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "seek", hd_cmd_seek, "seek curve: latency against signed distance from a reference" },
	{ "response", hd_cmd_response, "response time over the whole stroke, and its stability" },
	{ "media", hd_cmd_media, "media read time by transfer size" },
	{ "queue", hd_cmd_queue, "queued random reads from concurrent processes" },
	{ "interval", hd_cmd_interval, "write latency against the idle interval before it (--write)" },
	{ "bench", hd_cmd_bench, "sequential and 4K random read/write summary figures" },
	{ "zone", hd_cmd_zone, "sequential transfer rate against position" },
	{ "cache", hd_cmd_cache, "read segments, read-ahead, write cache and overheads" },
	{ "layout", hd_cmd_layout, "track size, skews, surfaces, head switch, one-cylinder seek, zones" },
	{ "profile", hd_cmd_profile, "run every probe, chart everything, write summary.json" },
	{ "fit", hd_cmd_fit, "fit the drive's mechanics from a profile directory" },
	{ "compare", hd_cmd_compare, "compare two or more profiles: side-by-side charts and findings" },
	{ "table", hd_cmd_table, "the bench figures of several profiles as one table (text, md, csv)" },
	{ "report", hd_cmd_report, "one self-contained HTML page of one or more profiles" },
	{ "verdict", hd_cmd_verdict, "PASS, WARN or FAIL for deployment, with reasons" },
	{ "burnin", hd_cmd_burnin, "qualify drives over hours: write stability and SMART, per drive (--write)" },
	{ "info", hd_cmd_info, "identity, SMART health, caches, size and sectors of a device" },
	{ "smart-save", hd_cmd_smart_save, "save a drive's SMART data for --smart-blob" },
	{ "plot", hd_cmd_plot, "draw charts of data files with gnuplot" },
	{ "sim", hd_cmd_sim, "list and show the built-in simulated drives" },
	{ "replay", hd_cmd_replay, "replay a request trace on a simulated drive" },
	{ "emulate", hd_cmd_emulate, "serve a simulated drive as a real block device" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: hddscope COMMAND [OPTIONS] [DEVICE]\n\n"
		   "Characterize a spinning hard disk: time O_DIRECT accesses, write the\n"
		   "samples as data files, chart them.  DEVICE is a block device, a regular\n"
		   "file, or a simulated drive sim:NAME (default: " HD_DEFAULT_TARGET ").\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'hddscope COMMAND --help' describes a command's options.\n"
		   "Nothing is ever written to a device without --write.\n\n"
		   "Exit codes: 0 ok, 1 usage error, 2 setup failure (cannot open, refused),\n"
		   "3 runtime failure (the device keeps failing), 4 verdict WARN, 5 verdict FAIL,\n"
		   "6 verdict cannot judge (cached writes, a target that does not rotate),\n"
		   "128 + signal when interrupted by HUP, INT, QUIT or TERM (129, 130, 131, 143).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return HD_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return HD_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("hddscope %s\n", HDDSCOPE_VERSION);
		return HD_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	hd_err("unknown command '%s'", argv[1]);
	fprintf(stderr, "Try 'hddscope --help'.\n");
	return HD_EXIT_USAGE;
}
