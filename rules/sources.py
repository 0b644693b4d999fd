"""The citable sources behind the rules.

Every recommendation and warning names one or more of these ids. The five papers are the
project's test oracles; the later sources carry the version-aware corrections (AIX 6.1+,
SAS 9.2+, SPD Server 5.x). A source marked ``confirmed=False`` is backed only by a
secondary source or an inference, and a rule leaning on it must say so in its rationale.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    authors: str
    year: int | None
    publication: str
    confirmed: bool = True
    # The SAS release a documentation source describes: cited for an older release, the
    # advice says the older release is taken to behave the same, unconfirmed.
    sas_release: str | None = None

    @property
    def citation(self) -> str:
        year = f" ({self.year})" if self.year else ""
        return f"{self.authors}{year}. {self.title}. {self.publication}."


SOURCES: dict[str, Source] = {
    s.id: s
    for s in (
        Source(
            "pohl2007",
            "Pipes and Threads: Performance Testing of Advanced Scalability Features in SAS v9",
            "Pohl, Forst, Widel, Burger",
            2007,
            "SAS Global Forum, paper 196-2007",
        ),
        Source(
            "bartucca2005",
            "Setting up and tuning direct IO for SAS 9 on AIX",
            "Bartucca",
            2005,
            "IBM eServer Solutions Enablement",
        ),
        Source(
            "xu",
            "Improving SAS Performance by Improving I/O Throughput of SAS Work Directory",
            "Lu Xu",
            None,
            "Procter & Gamble Pharmaceuticals",
        ),
        Source(
            "bogacz2012",
            "Practice on the SAS Scalable Performance Data Server Configuration for "
            "Maximum Performance",
            "Bogacz, Luo, Dorfner, Bianchi",
            2012,
            "SAS Global Forum, paper 368-2012",
        ),
        Source(
            "chew",
            "Pushing the Envelope: SAS System Considerations for Solaris/UNIX in Threaded, "
            "64 bit Environments",
            "Maureen Chew",
            2002,
            "Sun Microsystems / SUGI 27",
        ),
        Source(
            "ibm-aix72-vmm",
            "Values for minperm and maxperm parameters (AIX 7.2 documentation)",
            "IBM",
            None,
            "IBM AIX 7.2 documentation",
        ),
        Source(
            "oracle19c-aix",
            "Oracle Database 19c Installation Guide for AIX: Tuning Virtual Memory Manager",
            "Oracle",
            None,
            "Oracle documentation",
        ),
        Source(
            "ibm-aix-ioo",
            "ioo, vmo and chdev command references; technote swg21640392",
            "IBM",
            None,
            "IBM AIX documentation",
        ),
        Source(
            "ibm-aix-readahead",
            "Sequential page read ahead (JFS2 read-ahead starts at j2_minPageReadAhead pages "
            "and doubles up to j2_maxPageReadAhead)",
            "IBM",
            None,
            "IBM AIX 7.1 documentation, Performance management",
        ),
        Source(
            "sas94-config",
            "SAS 9.4 Companion for UNIX Environments: configuration files and system options",
            "SAS Institute",
            None,
            "SAS 9.4 documentation",
            sas_release="9.4",
        ),
        Source(
            "sas94-cpucount",
            "CPUCOUNT= System Option (default: ACTUAL under Windows and z/OS; under UNIX, "
            "ACTUAL or 4 for systems that have more than four processors)",
            "SAS Institute",
            None,
            "SAS 9.4 System Options: Reference, https://support.sas.com/documentation/cdl/en/"
            "lesysoptsref/64892/HTML/default/p14arc7flhenwqn1v1gipt9e49om.htm",
            sas_release="9.4",
        ),
        Source(
            "sas-proc-sort-space",
            "SORT Procedure, Results: Output Data Set (there must be at least enough space in "
            "the output library for a copy of the original data set; without enough memory "
            "PROC SORT stores the uncompressed data in a utility file)",
            "SAS Institute",
            None,
            "Base SAS 9.4 Procedures Guide, https://support.sas.com/documentation/cdl/en/proc/"
            "65145/HTML/default/p0qfl4163s8mb5n1pu2p8u4l95hy.htm",
            sas_release="9.4",
        ),
        Source(
            "sgf2009-327",
            "Direct I/O on UNIX with ENABLEDIRECTIO and USEDIRECTIO (paper 327-2009)",
            "SAS Institute",
            2009,
            "SAS Global Forum 2009",
        ),
        Source(
            "sas-io-throughput",
            "Best Practices for Configuring your IO Subsystem for SAS9; Contemplating I/O for SAS",
            "Crevar et al.; SAS Communities",
            2009,
            "SAS Institute",
        ),
        Source(
            "spds5-docs",
            "SAS Scalable Performance Data Server 5.3 Administrator's Guide",
            "SAS Institute",
            None,
            "SAS documentation",
        ),
        Source(
            "aix-defaults-secondary",
            "AIX 5.3 to 6.1 tunable defaults (secondary source, not confirmed against IBM)",
            "various",
            None,
            "secondary source",
            confirmed=False,
        ),
        Source(
            "ibm-aix-tunables",
            "Tunable parameters type; Common syntax for tuning commands; tunrestore "
            "(restricted tunables: not for end users, -p asks to confirm, boot errlog entry)",
            "IBM",
            None,
            "IBM AIX 7.2 documentation",
        ),
        Source(
            "aix73-capture",
            "ioo -a / vmo -a without -F on AIX 7.3 TL4 SP2 (mondoohq/mql, "
            "providers/os/resources/kernel/testdata/aix73_tunables.txt)",
            "field capture",
            None,
            "public test data, not vendor documentation",
            confirmed=False,
        ),
        Source(
            "ibm-aix52-tuning",
            "Tuning Enhancements for AIX 5.2: vmo and ioo replace vmtune",
            "IBM",
            None,
            "AIX 5L Version 5.2 Performance Management Guide",
        ),
        Source(
            "ibm-aix-fsbuf",
            "File system buffer tuning (vmstat -v blocked I/O counters, "
            "j2_dynamicBufferPreallocation)",
            "IBM",
            None,
            "IBM AIX 7.1 documentation",
        ),
        Source(
            "ibm-aix-queue-depth",
            "Disk and disk adapter tunable parameters (queue_depth); Check for disk "
            "bottlenecks using iostat (sqfull)",
            "IBM",
            None,
            "IBM AIX 7.2 documentation; IBM Support",
        ),
        Source(
            "tuned-profiles",
            "TuneD profiles throughput-performance, virtual-guest, oracle, postgresql; the "
            "disk, vm and cpu plugins (profiles/*/tuned.conf, tuned/plugins/plugin_*.py)",
            "Red Hat (redhat-performance/tuned)",
            2025,
            "TuneD source repository, releases 2.19-2.27",
        ),
        Source(
            "rhel-tuned-docs",
            "Monitoring and managing system status and performance: Customizing TuneD "
            "profiles (include=, instances with type=, tuned-adm verify)",
            "Red Hat",
            2024,
            "Red Hat Enterprise Linux 8 and 9 documentation",
        ),
        Source(
            "rhel-filesystems",
            "Managing file systems: XFS is the default file system; ext4 size limits",
            "Red Hat",
            2024,
            "Red Hat Enterprise Linux 8 and 9 documentation",
        ),
        Source(
            "sas-nfs-work",
            "When to use NFS with SAS (no SASWORK on NFS: WORK is half write, half read and "
            "all deleted)",
            "SAS Institute (SAS Users blog)",
            2015,
            "blogs.sas.com",
        ),
        Source(
            "sas-linux-community",
            "SAS tuned child profiles in public SAS Grid deployment scripts (readahead 16384 "
            "KB on data devices, transparent_hugepages=never, dirty_ratio 30, "
            "dirty_background_ratio 10); Red Hat's 'Optimizing SAS on RHEL' not read",
            "various",
            None,
            "public deployment scripts (field practice)",
            confirmed=False,
        ),
        Source(
            "kernel-vm-sysctl",
            "Documentation/admin-guide/sysctl/vm.rst: dirty_bytes and dirty_background_bytes "
            "are the counterparts of dirty_ratio and dirty_background_ratio, only one of each "
            "pair in effect (writing one zeroes the other); commit 2da02997 'mm: add "
            "dirty_background_bytes and dirty_bytes sysctls' (percentages stop being "
            "sufficient as machines' memory grows); hung_task_timeout_secs (default 120 s)",
            "the Linux kernel (David Rientjes for the commit)",
            2009,
            "Linux kernel documentation and git history",
        ),
        Source(
            "suse-dirty-cache",
            "Low write performance on Linux servers with large RAM (TID 7010287: lower the "
            "dirty cache with vm.dirty_bytes and vm.dirty_background_bytes; a few hundred MB "
            "usually suffices)",
            "SUSE",
            None,
            "SUSE Support knowledge base",
        ),
        Source(
            "sas-fullstimer",
            "FULLSTIMER System Option: UNIX and Windows (what each statistic means; CPU time "
            "may exceed real time for threaded procedures)",
            "SAS Institute",
            2011,
            "SAS 9.2/9.3 Companions for UNIX Environments and for Windows",
        ),
        Source(
            "sas-di-logs",
            "Evaluating SAS Logs: compare real time with user plus system CPU time; far "
            "apart on reads means an I/O or hardware problem",
            "SAS Institute",
            2006,
            "SAS Data Integration Studio 3.3 User's Guide, chapter 11",
        ),
        Source(
            "sas-limits",
            "Open files and processes for the SAS installer and server accounts (nofile at "
            "least 10240 for the mid-tier; grid nodes nofile 500000, nproc 131072)",
            "SAS Institute and SAS Grid deployment guides (secondary reading)",
            None,
            "SAS 9.4 pre-installation documentation, grid deployment scripts",
            confirmed=False,
        ),
        Source(
            "kernel-sched-debugfs",
            "sched: Move SCHED_DEBUG sysctl to debugfs (Linux 5.13): sched_min_granularity_ns "
            "and its kin are no longer sysctls",
            "Peter Zijlstra",
            2021,
            "Linux kernel commit 8a99b6833c88",
        ),
        Source(
            "sas-win-files",
            "Files Used by SAS: The Default Configuration File (!SASROOT\\sasv9.cfg names "
            "!SASROOT\\nls\\en\\sasv9.cfg)",
            "SAS Institute",
            2013,
            "SAS 9.4 Companion for Windows",
        ),
        Source(
            "sas-win-sgio",
            "SGIO System Option: Windows; Using SGIO (scatter-read/gather-write I/O bypasses "
            "the Windows file cache for files larger than memory; works with BUFNO and "
            "BUFSIZE; set at start-up only; 'When SGIO is active, SAS uses the number of "
            "buffers that are specified by the BUFNO system option': tune BUFNO for each job)",
            "SAS Institute",
            2013,
            "SAS 9.4 Companion for Windows, https://support.sas.com/documentation/cdl/en/"
            "hostwin/69955/HTML/default/n1b7b46t6239z1n1m9d81ka8zbcz.htm",
        ),
        Source(
            "sas-win-performance",
            "Windows Features That Optimize Performance: background services for batch SAS, "
            "programs for interactive sessions",
            "SAS Institute",
            2013,
            "SAS 9.4 Companion for Windows",
        ),
        Source(
            "ms-power-plan",
            "Performance Tuning Guidelines for Windows Server: power and performance tuning "
            "(the High performance plan for throughput-critical servers)",
            "Microsoft",
            None,
            "Microsoft Learn, Windows Server documentation",
        ),
        Source(
            "win-sas-field",
            "Field practice for SAS on Windows: 64 KB NTFS allocation units for SASWORK "
            "(matching the 64K stripe and page alignment of Crevar, SAS569-2017) and "
            "antivirus exclusions for WORK and UTILLOC",
            "various",
            None,
            "SAS administration material read second-hand",
            confirmed=False,
        ),
        Source(
            "ms-cluster-size",
            "Cluster size recommendations for ReFS and NTFS (ReFS offers 4K, its default, and "
            "64K clusters; 64K suits large sequential I/O)",
            "Microsoft (Windows Server storage team)",
            2017,
            "Microsoft Tech Community, Storage at Microsoft blog",
        ),
        Source(
            "ms-format-volume",
            "Format-Volume (Storage module: -FileSystem NTFS or ReFS, -AllocationUnitSize in "
            "bytes); fsutil fsinfo ntfsinfo and refsinfo ('Bytes Per Cluster')",
            "Microsoft",
            None,
            "Microsoft Learn, Windows Server PowerShell and command references",
        ),
        Source(
            "oracle-mpss",
            "mpss.so.1(1): the MPSS shared object (MPSSHEAP, MPSSSTACK, LD_PRELOAD) and "
            "pagesize(1) for the page sizes a machine supports",
            "Oracle (Sun Microsystems)",
            None,
            "Oracle Solaris 9, 10 and 11 reference manuals",
        ),
        Source(
            "oracle-mount-ufs",
            "mount_ufs(1M): forcedirectio and noforcedirectio",
            "Oracle (Sun Microsystems)",
            None,
            "Oracle Solaris 10 and 11 reference manuals",
        ),
        Source(
            "device-names",
            "How each system names its disks and adapters: AIX lsdev, lspv and rendev "
            "(hdiskN, fscsiN, vscsiN); the Linux kernel's allocated devices list (sdX, "
            "nvmeXnY, dm-N, SCSI hostN); Solaris and HP-UX logical device names (cXtYdZ); "
            "Windows \\\\.\\PhysicalDriveN",
            "IBM; the Linux kernel; Oracle; HPE; Microsoft",
            None,
            "AIX 7.2 commands reference; Documentation/admin-guide/devices.txt; Oracle "
            "Solaris 11 device administration; HP-UX 11i v3 mass storage naming; Win32 "
            "CreateFile (physical disks and volumes)",
        ),
        Source(
            "suse-filesystems",
            "Storage Administration Guide: Overview of file systems in Linux (Btrfs is the "
            "default for the operating system, XFS for all other use cases; "
            "https://documentation.suse.com/sles/15-SP5/html/SLES-all/cha-filesystems.html)",
            "SUSE",
            2023,
            "SUSE Linux Enterprise Server 15 documentation",
        ),
        Source(
            "oracle-linux-xfs",
            "About File System Management: XFS scales in I/O threads, bandwidth, file and "
            "file system size, even across many storage devices (https://docs.oracle.com/en/"
            "operating-systems/oracle-linux/8/fsadmin/)",
            "Oracle",
            None,
            "Oracle Linux 8 Managing Local File Systems",
        ),
        Source(
            "oracle-linux-thp",
            "Setting Transparent HugePages to madvise: THP is enabled by default with Oracle "
            "Linux (https://docs.oracle.com/en/database/oracle/oracle-database/21/cwlin/"
            "disabling-transparent-hugepages.html)",
            "Oracle",
            None,
            "Oracle Database 21c Installation Guide for Linux",
        ),
        Source(
            "kernel-thp-config",
            "thp: transparent hugepage config choice (the always or madvise default is chosen "
            "when the kernel is built; commit 13ece886d99c)",
            "Andrea Arcangeli",
            2011,
            "Linux kernel git history",
        ),
        Source(
            "kernel-sysfs-block",
            "Documentation/ABI/stable/sysfs-block: queue/read_ahead_kb, the maximum number of "
            "kilobytes to read ahead for file systems on this block device",
            "the Linux kernel",
            None,
            "Linux kernel documentation",
        ),
        Source(
            "ibm-scale-blocksize",
            "IBM Storage Scale (Spectrum Scale, GPFS): Block size (the file system's block "
            "size, set at mmcrfs -B and shown by mmlsfs -B, is the largest unit in which a "
            "file's data is read from and written to the disks; large blocks suit large "
            "sequential I/O such as SAS Grid's)",
            "IBM",
            None,
            "IBM Storage Scale documentation",
            confirmed=False,
        ),
        Source(
            "aws-ebs-nvme",
            "Amazon EBS and NVMe (EBS volumes are NVMe devices on Nitro instances; the device "
            "names may be assigned in another order at boot, so name them by a stable "
            "identifier such as the volume ID in the serial; https://docs.aws.amazon.com/ebs/"
            "latest/userguide/nvme-ebs-volumes.html)",
            "Amazon Web Services",
            None,
            "Amazon EBS User Guide",
            confirmed=False,
        ),
        Source(
            "anf-nfs-readahead",
            "Linux NFS read-ahead best practices (kernels from 5.4 and RHEL 8.3 set an NFS "
            "mount's read-ahead to 128 KiB whatever rsize is; SAS GRID tests found 15,360 KiB "
            "best; set it per mount through /sys/class/bdi/<major:minor>/read_ahead_kb, kept "
            "with a udev rule; https://learn.microsoft.com/en-us/azure/azure-netapp-files/"
            "performance-linux-nfs-read-ahead); Red Hat solution 5953561",
            "Microsoft (Azure NetApp Files); Red Hat",
            None,
            "Microsoft Learn; Red Hat Customer Portal",
        ),
        Source(
            "kernel-nfs-readahead",
            "NFS: Optimise the default readahead size (Linux 5.4: an NFS mount's read-ahead "
            "defaults to the VM's 128 KiB instead of 15 × rsize; commit c128e575514c)",
            "Trond Myklebust",
            2019,
            "Linux kernel git history",
        ),
        Source(
            "nfsrahead",
            "nfsrahead(5): configure the readahead for NFS mounts from udev, [nfsrahead] nfs= "
            "and nfs4= in /etc/nfs.conf (https://man7.org/linux/man-pages/man5/"
            "nfsrahead.5.html)",
            "nfs-utils (Thiago Rafael Becker)",
            2022,
            "nfs-utils manual pages",
        ),
        Source(
            "azure-sas-guide",
            "SAS on Azure architecture (requirements per physical core; 150 MB/s per core; "
            "one Spectrum Scale node per 8 cores; MicrosoftDocs/architecture-center "
            "docs/guide/sas; https://learn.microsoft.com/en-us/azure/architecture/guide/sas/"
            "sas-overview)",
            "Microsoft",
            None,
            "Azure Architecture Center",
        ),
        Source(
            "ibm-scale-commands",
            "IBM Storage Scale command reference: mmlsconfig (pagepool), mmlsfs -B (block size)",
            "IBM",
            None,
            "IBM Storage Scale documentation",
        ),
        Source(
            "raid-small-write",
            "RAID 4/5/6 small-write penalty: a partial-stripe write reads old data and parity "
            "and writes both back (general storage knowledge; textbook treatments of the "
            "Berkeley RAID levels)",
            "various",
            None,
            "general storage knowledge",
            confirmed=False,
        ),
        Source(
            "ibm-sas-aix71",
            "SAS 9.2 on IBM AIX 7.1: tuning guidelines (vmo minfree = max(960, 120-128 × "
            "logical CPUs), maxfree = minfree + j2_maxPageReadAhead × logical CPUs; ioo "
            "j2_maxPageReadAhead 1024 with j2_nBufferPerPagerDevice 2048, j2_minPageReadAhead "
            "16, j2_nPagesPerWriteBehindCluster 64, j2_dynamicBufferPreallocation 256)",
            "IBM",
            None,
            "IBM Systems (SAS on POWER) technical paper",
        ),
        Source(
            "ibm-aix-minfree",
            "Values for minfree and maxfree parameters (maxfree − minfree at least "
            "j2_maxPageReadAhead for Enhanced JFS; https://www.ibm.com/docs/en/ssw_aix_latest/"
            "performance/values_minfree_maxfree_param.html)",
            "IBM",
            None,
            "IBM AIX documentation, Performance management",
        ),
        Source(
            "aix71-ioo-capture",
            "ioo -F -L on AIX 7.1 TL3 (j2_nBufferPerPagerDevice 512, restricted, type M: "
            "applied at mount; nmon2influxdb's sample recording, samples/aixlpar.nmon.gz)",
            "field capture",
            None,
            "public test data, not vendor documentation",
            confirmed=False,
        ),
        Source(
            "oracle-large-pages-oob",
            "Solaris 10 What's New, 'MPSS Extended to Shared Memory': an out-of-box policy for "
            "large pages (https://docs.oracle.com/cd/E19253-01/817-0547/gewfc/index.html); "
            "Solaris Express 9/06: large pages assigned by the kernel itself "
            "(https://docs.oracle.com/cd/E19082-01/820-0724/gdppw/index.html); for a process "
            "heap the automatic choice is not stated there",
            "Oracle (Sun Microsystems)",
            None,
            "Oracle Solaris 10 documentation",
            confirmed=False,
        ),
        Source(
            "oracle-zfs-recordsize",
            "zfs(1M) recordsize: the suggested block size for files, for databases that "
            "access files in fixed-size records; a change affects only files created "
            "afterward (Oracle Solaris 11 ZFS Administration Guide, ZFS properties)",
            "Oracle",
            None,
            "Oracle Solaris 11 documentation",
        ),
        Source(
            "oracle-zfs-arc",
            "Oracle Solaris 11.2/11.3 Tunable Parameters Reference: zfs_arc_max (cap the ARC "
            "when a known workload needs part of memory; https://docs.oracle.com/cd/E36784_01/"
            "html/E36845/gjhec.html) and user_reserve_hint_pct (11.2+: memory reserved for "
            "applications, set to their footprint, lowered 5 % at a time; "
            "https://docs.oracle.com/cd/E62101_01/html/E62779/chapterzfs-3.html); My Oracle "
            "Support Doc 1663862.1 and its set_user_reserve.sh",
            "Oracle",
            None,
            "Oracle Solaris 11 documentation",
        ),
        Source(
            "ibm-scale-pinned",
            "IBM Spectrum Scale: Pinned memory (GPFS stores file data and metadata in pinned "
            "pagepool memory that cannot be swapped out, so GPFS always consumes at least the "
            "pagepool in system memory; https://www.ibm.com/support/knowledgecenter/en/"
            "STXKQY_5.0.5/com.ibm.spectrum.scale.v5r05.doc/bl1ins_pinnedmemory.htm)",
            "IBM",
            None,
            "IBM Spectrum Scale 5.0.5 documentation",
        ),
        Source(
            "openzfs-arc-max",
            "OpenZFS module parameters: zfs_arc_max, the ARC's largest size in bytes (0: the "
            "module's own default; /sys/module/zfs/parameters/zfs_arc_max; https://"
            "openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Module%20Parameters."
            "html#zfs-arc-max); that the ARC holds up to it beside applications and shrinks "
            "only under memory pressure is read from the Solaris references (oracle-zfs-arc), "
            "not confirmed for Linux",
            "OpenZFS",
            None,
            "OpenZFS documentation",
            confirmed=False,
        ),
        Source(
            "sas569-2017",
            "Crevar, Best Practices for Configuring your IO Subsystem for SAS 9 Applications "
            "(SAS569-2017): align the stripe unit and BUFSIZE at 64K, 128K or 256K",
            "Margaret Crevar",
            2017,
            "SAS Global Forum, paper SAS569-2017",
        ),
        Source(
            "cloud-instance-storage",
            "Amazon EC2 instance store (data is lost when the instance stops, hibernates or "
            "terminates; https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/"
            "InstanceStorage.html); Azure temporary disk (lost on redeploy, deallocation or "
            "maintenance; https://learn.microsoft.com/en-us/azure/virtual-machines/"
            "managed-disks-overview#temporary-disk)",
            "Amazon Web Services; Microsoft",
            None,
            "Amazon EC2 User Guide; Microsoft Learn",
        ),
        Source(
            "ms-diskspd",
            "Use DISKSPD to test workload storage performance (DiskSpd, Microsoft's I/O load "
            "generator for files, partitions and disks on Windows; "
            "https://learn.microsoft.com/en-us/azure-stack/hci/manage/diskspd-overview; "
            "https://github.com/microsoft/diskspd/wiki)",
            "Microsoft",
            None,
            "Microsoft Learn",
        ),
        Source(
            "sas-win-iotest",
            "SAS 9.4 Companion for Windows: the Sasiotest utility (sasiotest.exe in "
            "SASHome\\SASFoundation\\9.4 writes and reads files as SAS does and reports MB "
            "per second; http://support.sas.com/documentation/cdl/en/hostwin/69955/HTML/"
            "default/n0wn9kvgb1zjzln1ny9mghen66n7.htm)",
            "SAS Institute",
            None,
            "SAS documentation",
        ),
        Source(
            "sas-memsize-defaults",
            "MEMSIZE and SORTSIZE as SAS ships them: SAS 9.3 Companion for UNIX, MEMSIZE "
            "'Default: 512M' ('If MEMSIZE is set too low, your jobs will fail, and an error will "
            "appear in the SAS log indicating that insufficient memory was available'; "
            "https://support.sas.com/documentation/cdl/en/hostunx/63053/HTML/default/"
            "n09y5anvvpzrmnn0ztkyf59qgzvr.htm); SAS 9.4 Companion for Windows, MEMSIZE "
            "'Default: 2G' and SORTSIZE 'Default: 1G' (https://support.sas.com/documentation/"
            "cdl/en/hostwin/69955/HTML/default/n0srij4mcdpzv2n1vtphltb00xjw.htm, "
            "p024jq3a5zotf3n19rt86580m0cv.htm)",
            "SAS Institute",
            None,
            "SAS documentation",
        ),
        Source(
            "sas94-unix-shipped",
            "SAS 9.4 on Linux installs !SASROOT/sasv9.cfg with -MEMSIZE 2G and -SORTSIZE 1G "
            "(public install notes of SAS 9.4 and SAS Viya's SPRE sasv9.cfg, not SAS's UNIX "
            "9.4 documentation page)",
            "various",
            None,
            "public installation notes",
            confirmed=False,
        ),
        Source(
            "sas-ram-per-core",
            "SAS Performance Lab rhel_iotest.sh (SAS KB0039548): one stream per physical core "
            "(sockets × cores per socket); stops below 4 GB of RAM per physical core and warns "
            "below 8 GB, 'the SAS minimum'",
            "SAS Institute",
            None,
            "SAS Knowledge Base KB0039548",
        ),
        Source(
            "kernel-numa-balancing",
            "Documentation/admin-guide/sysctl/kernel.rst, numa_balancing: automatic NUMA "
            "balancing moves memory to the nodes that access it; remote memory costs a CPU "
            "time; disable it for work already bound to nodes (kernel commit 10fc05d0, 'mm: "
            "numa: Document automatic NUMA balancing sysctls')",
            "Linux kernel",
            2013,
            "Linux kernel documentation",
        ),
        Source(
            "rhel-numa",
            "Red Hat Enterprise Linux Performance Tuning Guide: Automatic NUMA balancing "
            "(enabled by default on NUMA systems; cat /proc/sys/kernel/numa_balancing) and "
            "numactl --hardware for the topology (https://docs.redhat.com/en/documentation/"
            "red_hat_enterprise_linux/7/html/performance_tuning_guide/"
            "sect-red_hat_enterprise_linux-performance_tuning_guide-cpu-configuration_"
            "suggestions)",
            "Red Hat",
            None,
            "Red Hat Enterprise Linux documentation",
        ),
        Source(
            "ibm-aix-lru-file-repage",
            "vmo command, lru_file_repage (AIX 5.3 TL1 and later; 0: the page stealer takes "
            "only file pages while numperm is above minperm%, whatever the repage rates; "
            "default 1 on 5.3, 0 from 6.1) with IBM's later VMM guidance minperm% 3, "
            "maxperm% 90, maxclient% 90, strict_maxperm 0 (https://www.ibm.com/docs/en/"
            "ssw_aix_72/v_commands/vmo.html; AIX 6.1 made these the defaults); the 5.3 TL "
            "that brought lru_file_repage is from secondary sources",
            "IBM",
            None,
            "IBM AIX documentation",
            confirmed=False,
        ),
    )
}

PAPERS: tuple[str, ...] = ("pohl2007", "bartucca2005", "xu", "bogacz2012", "chew")


def source(source_id: str) -> Source:
    """The source with this id; an unknown id is a programming error."""
    return SOURCES[source_id]


def grounds(source_ids: tuple[str, ...] | list[str]) -> str:
    """Whose guidance a piece of advice rests on: "papers" (only the five papers the rules
    encode), "later" (only later vendor or SAS documentation, none of the papers) or
    "papers and later"; "" where it cites nothing."""
    papers = [i in PAPERS for i in source_ids]
    if not papers:
        return ""
    if all(papers):
        return "papers"
    return "papers and later" if any(papers) else "later"


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def release_caveat(source_ids: tuple[str, ...], sas_version: str) -> str:
    """' (sas94-config: SAS 9.4 documentation; 9.1.3 behaves the same: unconfirmed)' where a
    source documents a later SAS release than the one advised; else ''."""
    later = [
        s
        for s in (SOURCES[i] for i in source_ids if i in SOURCES)
        if s.sas_release and _release(s.sas_release) > _release(sas_version)
    ]
    if not later:
        return ""
    ids = ", ".join(s.id for s in later)
    releases = "/".join(dict.fromkeys(s.sas_release or "" for s in later))
    return f" ({ids}: SAS {releases} documentation; {sas_version} behaves the same: unconfirmed)"
