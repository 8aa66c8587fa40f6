package policy

import (
	"path"
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

// imageExts are the endings of disk, machine and disc image files: a
// virtual machine's whole disk is one such file.
var imageExts = map[string]bool{
	".img": true, ".qcow2": true, ".qcow": true, ".qed": true, ".vmdk": true, ".vdi": true, ".vhd": true, ".vhdx": true,
	".raw": true, ".iso": true, ".dmg": true, ".sparseimage": true, ".sparsebundle": true, ".hdd": true,
}

// imageVerbs are the verbs by which a tool makes an image file at the
// path it is given, truncating whatever file is there.
var imageVerbs = map[string]bool{"create": true, "convert": true, "format": true, "init": true, "new": true, "build": true, "mkimage": true}

// qemuValueOpts are qemu-img's options that take a value.
var qemuValueOpts = []string{"-f", "-F", "-O", "-o", "-b", "-B", "-l", "-S", "-t", "-T", "-m", "-r", "-s", "--object", "--image-opts", "--target-image-opts"}

// qemuImg judges qemu-img by the image files it writes: create FILE makes
// it afresh, truncating what was there; convert … OUT and dd of=OUT write
// OUT whole; snapshot -a reverts an image to a snapshot and -d deletes
// one. Each is judged as a truncating write to the file (writeTarget):
// outside the working directory and the temp dirs, over a file that is
// there or may be, it is held. The rest (info, check, map) reads.
func qemuImg(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	ops := operands(args, qemuValueOpts...)
	if len(ops) == 0 || !ops[0].ok {
		return
	}
	var out []arg
	switch verb := ops[0].s; verb {
	case "create":
		if len(ops) > 1 {
			out = ops[1:2]
		}
	case "convert":
		if len(ops) > 2 {
			out = ops[len(ops)-1:]
		}
	case "dd":
		for _, a := range ops[1:] {
			if v, ok := strings.CutPrefix(a.s, "of="); a.ok && ok {
				out = append(out, arg{s: v, ok: true, src: v})
			}
		}
	case "snapshot": // -a SNAP reverts the image to it, -d SNAP deletes it
		if hasFlag(args, "ad", "") && len(ops) > 1 {
			iv.changesImage(ops[len(ops)-1], "qemu-img snapshot -a or -d reverts an image to a snapshot or deletes one")
		}
	case "resize": // --shrink cuts off the image's end
		if hasFlag(args, "", "--shrink") && len(ops) > 2 {
			iv.changesImage(ops[1], "qemu-img resize --shrink cuts off the end of an image")
		}
	}
	for _, o := range out {
		iv.writesImage(o)
	}
}

// changesImage holds what loses part of an image file outside the
// working directory and the temp dirs.
func (iv *inv) changesImage(img arg, what string) {
	if t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(img.s), ok: img.ok, src: img.src}); !iv.sc.remote && iv.c.danger(t) != "" {
		iv.flag(Destructive, phrase(what, iv.c.danger(t))+": "+iv.c.show(t))
	}
}

// writesImage judges making an image file at a: a truncating write.
func (iv *inv) writesImage(a arg) {
	if iv.sc.remote {
		return
	}
	class, why := iv.c.writeTarget(iv.sc, arg{s: iv.c.tilde(a.s), ok: a.ok, src: a.src}, true)
	if class >= Destructive {
		iv.flagWrite(iv.c.resolve(iv.sc, arg{s: iv.c.tilde(a.s), ok: a.ok, src: a.src}), iv.name+" makes an image file afresh, and "+why)
	}
}

// imageFile judges a tool tend does not know that makes an image file:
// told to create, convert or format one (vmtool create disk.qcow2 20G),
// or given one as its output (-o, --output): the file is written afresh
// over what was there.
func imageFile(iv *inv) {
	if iv.c.cmds[iv.idx].Class >= Destructive {
		return
	}
	args := iv.rest(1)
	makes := false
	for i, a := range args {
		switch {
		case !a.ok:
		case imageVerbs[a.s] && i < 3:
			makes = true
		case makes && !strings.HasPrefix(a.s, "-") && imageExts[strings.ToLower(path.Ext(a.s))]:
			iv.writesImage(a)
			return
		case (a.s == "-o" || a.s == "--output" || a.s == "--outfile") && i+1 < len(args) && args[i+1].ok && imageExts[strings.ToLower(path.Ext(args[i+1].s))]:
			iv.writesImage(args[i+1])
			return
		}
	}
}
