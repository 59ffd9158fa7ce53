/*
 * One option table per command, in the manner of fio's struct fio_option:
 * each row names an option once (its long name and letter, the kind of
 * value it takes, its default, its range, where the value is stored and
 * its help line), and getopt_long's array, the parsing with its range
 * checks and one-line errors, the defaults and the --help text all come
 * from that row.
 */
#ifndef HDDSCOPE_OPT_H
#define HDDSCOPE_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum hd_opt_kind {
	HD_OPT_END,		/* ends a table */
	HD_OPT_TEXT,		/* not an option: help prints the text as it is */
	HD_OPT_FLAG,		/* int, set to 1 when given */
	HD_OPT_SIZE,		/* uint64_t bytes, with k, m, g, t suffixes; in [lo, hi] */
	HD_OPT_COUNT,		/* uint64_t, a plain whole number; in [lo, hi] */
	HD_OPT_DURATION,	/* int64_t nanoseconds (hd_parse_duration) */
	HD_OPT_DOUBLE,		/* double; in [dlo, dhi] */
	HD_OPT_ENUM,		/* int: values[i] for the word words[i] */
	HD_OPT_STRING,		/* const char *, the argument as given */
	HD_OPT_FILE,		/* const char *, a file name: not empty */
	HD_OPT_CALL,		/* call(o, arg) parses the argument into o */
	HD_OPT_HELP,		/* -h, --help: print the help to stdout and stop */
};

/*
 * A row of an option table.  Offsets are relative to the option struct
 * the table fills (offsetof), so one table serves every parse.
 */
struct hd_option {
	const char *name;	/* long name, without "--"; the text of an HD_OPT_TEXT row */
	int letter;		/* short option letter, 0 for none */
	enum hd_opt_kind kind;
	const char *arg;	/* the value's name in the help (N, SIZE); an enum's words when NULL */
	size_t off;		/* where the value is stored */
	size_t given;		/* HD_OPT_GIVEN(): an int set to 1 when given; 0 for none */
	const char *def;	/* the default, written as an argument would be; NULL: zero */
	const char *shown;	/* the default as the help shows it, where def does not say it */
	uint64_t lo, hi;	/* SIZE, COUNT: the range; hi 0 means no upper limit */
	double dlo, dhi;	/* DOUBLE: the range */
	const char *const *words;	/* ENUM: the accepted words, NULL-terminated */
	const int *values;	/* ENUM: the value of each word */
	const char *must;	/* the range error's "must be ..." where the generic one says too little */
	/* CALL: 0, -1 after printing a usage error, or an exit code (>0) after printing why. */
	int (*call)(void *o, const char *arg);
	const char *help;	/* the help text, lines separated by '\n'; NULL: not listed */
	int writes;		/* listed only for a command that writes (hd_cmdspec.writes) */
};

/* An int at offsetof(type, member), for hd_option.given (0 stays "none"). */
#define HD_OPT_GIVEN(type, member) (offsetof(type, member) + 1)

/* Everything a command's --help and parse need. */
struct hd_cmdspec {
	const char *name;		/* the command, for "Try 'hddscope NAME --help'." */
	const char *synopsis;		/* "Usage: hddscope NAME SYNOPSIS" and a blank line first (NULL: none) */
	const char *intro;		/* the usage text before the options */
	const struct hd_option *opts;	/* the command's own rows */
	const char *outro;		/* after its own rows (NULL: none) */
	const struct hd_option *more;	/* rows of options shared with other commands (NULL: none) */
	size_t more_off;		/* where the struct the shared rows fill lies within the option struct */
	int writes;			/* list the rows marked writes */
	void (*extra_help)(FILE *f);	/* printed at the end of the help (NULL: none) */
	/* Checks the options together after parsing: 0, or -1 after printing why. */
	int (*check)(void *o);
};

/*
 * The head of a probe's spec: its name, its synopsis, and the options
 * every probe shares (session.h) after its own.
 */
#define HD_PROBE_SPEC(NAME, SYNOPSIS) .name = NAME, .synopsis = SYNOPSIS, .more = hd_common_options

/* The last rows of a command's own table: -h, --help, and the end. */
#define HD_OPT_HELP_END                                                               \
	{ .name = "help", .letter = 'h', .kind = HD_OPT_HELP, .help = "this help" }, \
	{ .kind = HD_OPT_END }

/* hd_opt_parse's answer when the command is to go on. */
#define HD_OPT_GO (-1)

/* Set every option of spec in o to its default (o is zeroed first). */
void hd_opt_defaults(const struct hd_cmdspec *spec, void *o, size_t size);

/*
 * Parse argv into o (defaults first, then every option, then spec's
 * check).  Returns HD_OPT_GO with optind at the first operand, or the exit
 * code to end the command with: HD_EXIT_OK after printing the help to
 * stdout for -h/--help, HD_EXIT_USAGE after one line and the hint, or a
 * CALL row's own exit code.
 */
int hd_opt_parse(const struct hd_cmdspec *spec, void *o, size_t size, int argc, char **argv);

/* The --help text of spec. */
void hd_opt_usage(const struct hd_cmdspec *spec, FILE *f);

#endif
