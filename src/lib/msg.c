/* The two ways hddscope speaks to the user: an error and a warning, one line each. */
#include <stdarg.h>
#include <stdio.h>

#include "hddscope/msg.h"

volatile sig_atomic_t hd_interrupted;

void hd_err(const char *fmt, ...)
{
	va_list ap;

	fputs("hddscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void hd_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("hddscope: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
