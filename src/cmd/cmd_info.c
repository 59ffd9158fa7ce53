/*
 * hddscope info: what hddscope sees of a target (kind, size, sectors), who
 * the drive says it is, its health, its caches and the kernel's queue.
 * hddscope smart-save: keep a drive's SMART data for later.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"
#include "hddscope/opt.h"
#include "hddscope/util.h"

struct info_opts {
	int json, attrs;
	const char *blob;	/* --smart-blob FILE */
};

static const struct hd_option info_options[] = {
	{ .name = "json", .kind = HD_OPT_FLAG, .off = offsetof(struct info_opts, json), .help = "machine-readable output" },
	{ .name = "smart", .kind = HD_OPT_FLAG, .off = offsetof(struct info_opts, attrs),
	  .help = "add the SMART attribute table" },
	{ .name = "smart-blob", .kind = HD_OPT_STRING, .arg = "FILE", .off = offsetof(struct info_opts, blob),
	  .help = "identity and SMART from saved data (skdump --save or\n"
		  "hddscope smart-save) instead of asking the drive" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec info_spec = {
	.name = "info",
	.intro = "Usage: hddscope info [--json] [--smart] [--smart-blob FILE] [DEVICE]\n"
		 "\n"
		 "Show what hddscope sees of DEVICE (default: " HD_DEFAULT_TARGET "): kind, size,\n"
		 "logical and physical sector, rotational flag; the drive's identity (model,\n"
		 "serial, firmware, nominal rpm, NCQ depth) from ATA IDENTIFY; its SMART health\n"
		 "through libatasmart (overall assessment, bad sectors, temperature, power-on\n"
		 "hours, power cycles); write cache and read look-ahead; the kernel queue's\n"
		 "scheduler, nr_requests and queue_depth; the zoned model (queue/zoned: none,\n"
		 "host-aware, host-managed) and the drive's ATA zoned capabilities (IDENTIFY\n"
		 "word 69: not reported, host-aware, device-managed).  What cannot be read is\n"
		 "\"unknown\"; what a file or a simulated drive does not have is \"n/a\".  A file,\n"
		 "a non-ATA device or a simulated drive says why SMART is not available.\n"
		 "Nothing is written.\n"
		 "\n",
	.opts = info_options,
	.outro = "\n"
		 "Exit codes: 0 ok, 1 usage, 2 cannot open (the device or the saved data).\n",
};

static void text_identity(const struct hd_dev *d, const struct hd_identity *id, int attrs)
{
	char sz[32], n[24];

	printf("device:           %s\n", d->path);
	printf("kind:             %s%s\n", hd_dev_kind_name(d->kind), id->simulated ? " (its identity is the model's)" : "");
	printf("size:             %llu bytes (%s)\n", (unsigned long long)d->size, hd_fmt_size(sz, sizeof(sz), d->size));
	printf("logical sector:   %u bytes\n", d->logical_sector_bytes);
	printf("physical sector:  %u bytes\n", d->physical_sector_bytes);
	printf("access unit:      %u bytes\n", d->io_align);
	printf("rotational:       %s\n", id->rotational < 0 ? "unknown" : id->rotational ? "yes" : "no");
	printf("direct I/O:       %s\n", d->direct ? "yes (O_DIRECT)" : "no (page cache in the path)");
	printf("model:            %s\n", id->model);
	if (id->vendor[0])
		printf("vendor:           %s\n", id->vendor);
	printf("serial:           %s\n", id->serial[0] ? id->serial : "unknown");
	printf("firmware:         %s\n", id->firmware[0] ? id->firmware : "unknown");
	if (id->rpm_nominal > 1)
		printf("nominal rpm:      %d\n", id->rpm_nominal);
	else
		printf("nominal rpm:      %s\n", id->rpm_nominal == 1 ? "non-rotating (solid state)" : "unknown");
	if (id->ncq_depth)
		printf("NCQ depth:        %d\n", id->ncq_depth);
	printf("write cache:      %s%s\n", hd_onoff(id->write_cache),
	       id->write_cache_supported == 0 ? " (not supported)" : "");
	printf("read look-ahead:  %s%s\n", hd_onoff(id->read_lookahead),
	       id->read_lookahead_supported == 0 ? " (not supported)" : "");
	if (id->cache_type[0])
		printf("cache_type:       %s\n", id->cache_type);
	printf("scheduler:        %s\n", hd_queue_scheduler_word(id));
	printf("nr_requests:      %s\n", hd_queue_int_word(id, id->nr_requests, n, sizeof(n)));
	printf("queue_depth:      %s\n", hd_queue_int_word(id, id->queue_depth, n, sizeof(n)));
	printf("zoned:            %s\n", hd_queue_zoned_word(id));
	printf("ATA zoned:        %s\n", hd_ata_zoned_word(id));
	printf("identity from:    %s\n", id->source);
	if (!id->smart_available) {
		printf("SMART:            not available (%s)\n", id->smart_reason[0] ? id->smart_reason : "unknown");
		return;
	}
	printf("SMART:            %s\n", id->smart_overall);
	if (id->have_bad)
		printf("bad sectors:      %llu\n", (unsigned long long)id->bad_sectors);
	if (id->have_temp)
		printf("temperature:      %.1f C\n", id->temperature_c);
	if (id->have_power_on)
		printf("power-on hours:   %llu\n", (unsigned long long)id->power_on_hours);
	if (id->have_power_cycles)
		printf("power cycles:     %llu\n", (unsigned long long)id->power_cycles);
	if (!attrs)
		return;
	printf("\n ID name                            value worst thresh  type      status  raw\n");
	for (size_t i = 0; i < id->nattrs; i++) {
		const struct hd_smart_attr *a = &id->attrs[i];
		char v[16] = "-", w[16] = "-", t[16] = "-";

		if (a->value >= 0)
			snprintf(v, sizeof(v), "%d", a->value);
		if (a->worst >= 0)
			snprintf(w, sizeof(w), "%d", a->worst);
		if (a->threshold >= 0)
			snprintf(t, sizeof(t), "%d", a->threshold);
		printf("%3d %-30s %5s %5s %6s  %-8s  %-6s  %llu\n", a->id, a->name, v, w, t,
		       a->prefailure ? "prefail" : "old-age", a->good < 0 ? "n/a" : a->good ? "good" : "FAIL",
		       (unsigned long long)a->raw);
	}
}

int hd_cmd_info(int argc, char **argv)
{
	struct info_opts o;
	struct hd_identity id;
	struct hd_dev *d;
	const char *spec, *blob = NULL;
	int c, json = 0, attrs = 0, ex;
	char err[512];

	c = hd_opt_parse(&info_spec, &o, sizeof(o), argc, argv);
	if (c != HD_OPT_GO)
		return c;
	json = o.json;
	attrs = o.attrs;
	blob = o.blob;
	if (argc - optind > 1) {
		hd_err("too many arguments: '%s'", argv[optind + 1]);
		return hd_usage_hint("info");
	}
	spec = optind < argc ? argv[optind] : HD_DEFAULT_TARGET;
	ex = hd_open_target(&d, spec, 0);
	if (ex)
		return ex;
	if (hd_identity_of(d, blob, &id, err, sizeof(err))) {
		hd_err("%s", err);
		hd_identity_free(&id);
		hd_dev_close(d);
		return HD_EXIT_SETUP;
	}
	if (json) {
		struct hd_json j;

		hd_json_init(&j, stdout, 1);
		hd_identity_json(&j, NULL, d, &id, attrs);
	} else {
		text_identity(d, &id, attrs);
	}
	hd_identity_free(&id);
	hd_dev_close(d);
	return HD_EXIT_OK;
}

static void smart_save_usage(FILE *f)
{
	fprintf(f, "Usage: hddscope smart-save DEVICE FILE\n"
		   "\n"
		   "Save DEVICE's IDENTIFY and SMART data to FILE in libatasmart's format (as\n"
		   "skdump --save writes it), for --smart-blob on another machine or behind a\n"
		   "USB bridge that hides SMART.  Needs an ATA disk and the rights to query it.\n"
		   "\n"
		   "Exit codes: 0 ok, 1 usage, 2 cannot read or write.\n");
}

int hd_cmd_smart_save(int argc, char **argv)
{
	char err[512];

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		smart_save_usage(stdout);
		return HD_EXIT_OK;
	}
	if (argc != 3 || argv[1][0] == '-') {
		hd_err(argc < 3 ? "smart-save needs DEVICE and FILE" : "smart-save takes DEVICE and FILE only");
		return hd_usage_hint("smart-save");
	}
	if (hd_smart_save(argv[1], argv[2], err, sizeof(err))) {
		hd_err("%s", err);
		return HD_EXIT_SETUP;
	}
	return HD_EXIT_OK;
}
