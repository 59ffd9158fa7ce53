/*
 * Subcommands.  Each takes the arguments after its name (argv[0] is the
 * subcommand's name) and returns the process exit code: 0 ok, 1 usage,
 * 2 setup failure, 3 runtime failure, 128 + signal when interrupted by HUP,
 * INT, QUIT or TERM (see hd_interrupt_exit).  Messages go to
 * stderr prefixed with "hddscope: ".
 */
#ifndef HDDSCOPE_CMD_H
#define HDDSCOPE_CMD_H

enum {
	HD_EXIT_OK = 0,
	HD_EXIT_USAGE = 1,
	HD_EXIT_SETUP = 2,
	HD_EXIT_RUNTIME = 3,
	HD_EXIT_WARN = 4,	/* verdict: WARN */
	HD_EXIT_FAIL = 5,	/* verdict: FAIL */
	HD_EXIT_SIGNAL = 128,	/* + the signal that interrupted the run */
};

/* The default target when DEVICE is omitted. */
#define HD_DEFAULT_TARGET "sim:atlas3"

int hd_cmd_seek(int argc, char **argv);
int hd_cmd_response(int argc, char **argv);
int hd_cmd_media(int argc, char **argv);
int hd_cmd_queue(int argc, char **argv);
int hd_cmd_interval(int argc, char **argv);
int hd_cmd_bench(int argc, char **argv);
int hd_cmd_zone(int argc, char **argv);
int hd_cmd_profile(int argc, char **argv);
int hd_cmd_fit(int argc, char **argv);
int hd_cmd_compare(int argc, char **argv);
int hd_cmd_verdict(int argc, char **argv);
int hd_cmd_info(int argc, char **argv);
int hd_cmd_smart_save(int argc, char **argv);
int hd_cmd_plot(int argc, char **argv);
int hd_cmd_sim(int argc, char **argv);
int hd_cmd_replay(int argc, char **argv);

/* Print "hddscope: " + message + "\n" to stderr. */
void hd_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
