/* The two ways hddscope speaks to the user: an error and a warning, one line each. */
#include <stdarg.h>
#include <stdio.h>

#include "hddscope/msg.h"

volatile sig_atomic_t hd_interrupted;

/* "hddscope: " + prefix + the message + "\n", on stderr. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "hddscope: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void hd_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void hd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}
