/* hddscope info: what the device layer sees of a target. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/util.h"

static void info_usage(FILE *f)
{
	fprintf(f,
"Usage: hddscope info [--json] [DEVICE]\n"
"\n"
"Show what hddscope sees of DEVICE (default: " HD_DEFAULT_TARGET "): kind, size,\n"
"logical and physical sector, rotational flag.  Nothing is written.\n"
"\n"
"  --json      machine-readable output\n"
"  -h, --help  this help\n"
"\n"
"Exit codes: 0 ok, 1 usage, 2 cannot open.\n");
}

/* Print s as a JSON string. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

int hd_cmd_info(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hd_dev *d;
	const char *spec;
	int c, json = 0, ex;
	char sz[32];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			info_usage(stdout);
			return HD_EXIT_OK;
		default:
			hd_err("unknown option '%s'", argv[optind - 1]);
			return hd_usage_hint("info");
		}
	}
	if (argc - optind > 1) {
		hd_err("too many arguments: '%s'", argv[optind + 1]);
		return hd_usage_hint("info");
	}
	spec = optind < argc ? argv[optind] : HD_DEFAULT_TARGET;
	ex = hd_open_target(&d, spec, 0);
	if (ex)
		return ex;
	if (json) {
		printf("{\"device\": ");
		json_str(d->path);
		printf(", \"kind\": ");
		json_str(hd_dev_kind_name(d->kind));
		printf(", \"model\": ");
		json_str(d->model[0] ? d->model : "unknown");
		printf(", \"size_bytes\": %llu, \"logical_sector_bytes\": %u, \"physical_sector_bytes\": %u, "
		       "\"access_unit_bytes\": %u, \"rotational\": %s, \"direct_io\": %s}\n",
		       (unsigned long long)d->size, d->logical_sector, d->physical_sector, d->io_align,
		       d->rotational < 0 ? "null" : d->rotational ? "true" : "false", d->direct ? "true" : "false");
	} else {
		printf("device:           %s\n", d->path);
		printf("kind:             %s\n", hd_dev_kind_name(d->kind));
		printf("model:            %s\n", d->model[0] ? d->model : "unknown");
		printf("size:             %llu bytes (%s)\n", (unsigned long long)d->size,
		       hd_fmt_size(sz, sizeof(sz), d->size));
		printf("logical sector:   %u bytes\n", d->logical_sector);
		printf("physical sector:  %u bytes\n", d->physical_sector);
		printf("access unit:      %u bytes\n", d->io_align);
		printf("rotational:       %s\n", d->rotational < 0 ? "unknown" : d->rotational ? "yes" : "no");
		printf("direct I/O:       %s\n", d->direct ? "yes (O_DIRECT)" : "no (page cache in the path)");
	}
	hd_dev_close(d);
	return HD_EXIT_OK;
}
