package policy

import (
	"strings"
)

// diskDevice is a block device: a whole disk or a partition of one, a
// device-mapper or RAID volume.
var diskDevice = lazyRE(`^/dev/(?:sd[a-z]+|hd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+(?:n\d+)?|mmcblk\d+|md\d*|dm-\d+|mapper/[^\s/]+|disk/by-[\w-]+/\S+|r?disk\d+|nbd\d+)(?:p?\d+)?(?:s\d+)?$`)

// diskReaders only read the devices they are given: their state, their
// identity, their health.
var diskReaders = map[string]bool{
	"smartctl": true, "blkid": true, "udevadm": true, "dumpe2fs": true, "xfs_info": true, "df": true, "findmnt": true,
	"lsblk": true, "stat": true, "file": true, "iostat": true, "blockdev": true, "debugfs": true, "partx": true,
}

// diskReadWords say a disk tool only reads or only says what it would do:
// nvme list and smart-log, e2fsck -n, tune2fs -l, hdparm -I, --dry-run.
var diskReadWords = map[string]bool{
	"list": true, "smart-log": true, "id-ctrl": true, "id-ns": true, "error-log": true, "list-ns": true, "show-regs": true,
	"fw-log": true, "get-log": true, "get-feature": true, "info": true, "show": true, "status": true, "print": true,
	"-n": true, "--dry-run": true, "--no-act": true, "-l": true, "--list": true, "-I": true, "-i": true, "--info": true, "-t": true, "-T": true,
}

// rawDisk holds a tool tend does not know that is given a disk or
// partition (nvme format /dev/nvme0n1, hdparm --security-erase … /dev/sda,
// resize2fs /dev/sda1, e2fsck -y /dev/sda1): what it does to the device
// may destroy every file on it. A tool that only reads devices, or words
// that say it only reads, leave it alone.
func rawDisk(iv *inv) {
	if diskReaders[iv.name] || iv.c.cmds[iv.idx].Class >= Destructive {
		return
	}
	args := iv.rest(1)
	disk := ""
	for _, a := range args {
		if !a.ok {
			continue
		}
		if diskReadWords[a.s] {
			return
		}
		v := a.s
		if i := strings.LastIndexByte(v, '='); i >= 0 && strings.HasPrefix(v, "-") {
			v = v[i+1:] // --device=/dev/sda
		}
		if disk == "" && diskDevice.MatchString(v) && !strings.HasPrefix(v, "/dev/null") {
			disk = v
		}
	}
	if disk != "" {
		iv.flag(Destructive, iv.name+", a tool tend does not know, is given a disk to work on: "+disk)
	}
}
