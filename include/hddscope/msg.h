/*
 * Messages and exit codes, shared by every layer that may print (cmd/ and
 * probe/ only: the layers below return -errno and let their caller say
 * what failed).  Messages go to stderr prefixed with "hddscope: ".
 */
#ifndef HDDSCOPE_MSG_H
#define HDDSCOPE_MSG_H

#include <signal.h>

/*
 * A command returns the process exit code: 0 ok, 1 usage, 2 setup failure,
 * 3 runtime failure, 4 and 5 the verdict's WARN and FAIL, 128 + signal when
 * interrupted by HUP, INT, QUIT or TERM (see hd_interrupt_exit).
 */
enum {
	HD_EXIT_OK = 0,
	HD_EXIT_USAGE = 1,
	HD_EXIT_SETUP = 2,
	HD_EXIT_RUNTIME = 3,
	HD_EXIT_WARN = 4,	/* verdict: WARN */
	HD_EXIT_FAIL = 5,	/* verdict: FAIL */
	HD_EXIT_CANNOT_JUDGE = 6,	/* verdict: the data cannot show what is asked */
	HD_EXIT_SIGNAL = 128,	/* + the signal that interrupted the run */
};

/*
 * The signal that interrupted the run (HUP, INT, QUIT or TERM; SIGIO when
 * another process opened a regular file being written), 0 while none has
 * arrived.  It lives here, below every layer, because the device layer
 * must stop waiting when it is set; only probe.c installs the handlers
 * that set it (hd_install_signals).
 */
extern volatile sig_atomic_t hd_interrupted;

/* Print "hddscope: " + message + "\n" to stderr. */
void hd_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "hddscope: warning: " + message + "\n" to stderr. */
void hd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
