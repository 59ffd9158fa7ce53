/*
 * sysfs, under a root that tests can move: $HDDSCOPE_SYSFS, else /sys.
 * Attributes are looked up through /sys/dev/block/MAJOR:MINOR, falling back
 * to the parent disk for a partition.
 */
#ifndef HDDSCOPE_SYSFS_H
#define HDDSCOPE_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

/* The first line of a file, without its newline; 0 or -errno. */
int hd_sysfs_read(const char *path, char *buf, size_t len);
/* Write value to an attribute; 0 or -errno. */
int hd_sysfs_write(const char *path, const char *value);
/* An attribute of the disk rdev ("queue/rotational", "device/model"); 0 or -errno. */
int hd_sysfs_disk_attr(dev_t rdev, const char *attr, char *buf, size_t len);
/* The path of an attribute of the disk rdev (the parent's for a partition) that exists; 0 or -errno. */
int hd_sysfs_disk_attr_path(dev_t rdev, const char *attr, char *buf, size_t len);
/* The path of the SCSI disk's cache_type attribute, or NULL when there is none. */
const char *hd_sysfs_cache_type_path(dev_t rdev, char *buf, size_t len);

#endif
