//! Writing a database: the partial file, its lock, tier after tier, and
//! the rename that publishes it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use grundy::clear::shapes::ShapeBox;
use grundy::tier::{CompactTier, TierTable};

use crate::database::*;
use crate::error::*;
use crate::format::*;
use crate::header::*;

/// Writes a database tier by tier into `PATH.partial`, holding an exclusive
/// lock on it, then renames it to `PATH`.
#[derive(Debug)]
pub struct Writer {
    pub(crate) path: PathBuf,
    pub(crate) partial: PathBuf,
    /// Open, and locked, until the writer is dropped (after the rename).
    pub(crate) file: File,
    pub(crate) header: Header,
    pub(crate) note: Option<String>,
    /// Tests: the length past which writes fail as on a full disk.
    #[cfg(test)]
    pub(crate) space_limit: Option<u64>,
}

/// The partial file a build of `path` writes.
#[must_use]
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Tiers `first` to `last` (1-based) in words: `tier 4`, `tiers 4 to 6`.
fn tiers_from(first: usize, last: usize) -> String {
    if first == last {
        format!("tier {first}")
    } else {
        format!("tiers {first} to {last}")
    }
}

/// Opens the partial file (creating it if there is none) and takes its
/// exclusive lock; says whether it was created now.
pub(crate) fn lock_partial(partial: &Path) -> Result<(File, bool)> {
    use std::io::ErrorKind;
    // Between our open and our lock, the build holding the lock may finish
    // and rename the file to its final path: we would then hold the
    // complete file. So check that the path still names the locked file,
    // and start over when it does not.
    for _ in 0..8 {
        let (file, created) = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(partial)
        {
            Ok(file) => (file, true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                match OpenOptions::new().read(true).write(true).open(partial) {
                    Ok(file) => (file, false),
                    Err(e) if e.kind() == ErrorKind::NotFound => continue,
                    Err(e) => return Err(io(partial)(e)),
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
                // The directory is missing, or a file stands in its way:
                // named, rather than the file that was to be made in it.
                let dir = partial
                    .parent()
                    .filter(|dir| !dir.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                let file = partial.file_name().unwrap_or_default().to_string_lossy();
                let what = if e.kind() == ErrorKind::NotFound {
                    "no such directory"
                } else {
                    "not a directory"
                };
                return Err(io(dir)(std::io::Error::new(
                    e.kind(),
                    format!("{what}, to write {file} in"),
                )));
            }
            Err(e) => return Err(write_error(partial, HEADER_LEN as u64)(e)),
        };
        // Fully qualified: std has inherent methods of these names since
        // Rust 1.89 (the workspace supports 1.85, hence fs4).
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(DbError::Busy {
                    path: partial.to_owned(),
                    holder: lock_holder(&file),
                })
            }
            Err(fs4::TryLockError::Error(e)) => return Err(io(partial)(e)),
        }
        if names_file(partial, &file) {
            return Ok((file, created));
        }
    }
    Err(DbError::Busy {
        path: partial.to_owned(),
        holder: None,
    })
}

/// Refuses an output that is there and is not a regular file: the finished
/// database is renamed over `path`, which would replace a device, a FIFO or
/// a socket, and a symbolic link itself rather than the file it names.
pub(crate) fn refuse_to_replace(path: &Path) -> Result<()> {
    let Ok(metadata) = std::fs::symlink_metadata(path) else {
        // Not there (or not looked at): the open or the rename says why.
        return Ok(());
    };
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    if kind.is_dir() {
        return Err(io(path)(std::io::ErrorKind::IsADirectory.into()));
    }
    Err(io(path)(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "{}, not a regular file: a finished database replaces the file at its path",
            file_kind(&metadata)
        ),
    )))
}

/// What kind of file `metadata` describes, in words (`a FIFO`).
#[must_use]
pub fn file_kind(metadata: &std::fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_symlink() {
        return "a symbolic link";
    }
    if kind.is_dir() {
        return "a directory";
    }
    if kind.is_file() {
        return "a regular file";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// Whether `path` names the open `file` (not a file renamed over it).
#[cfg(unix)]
pub(crate) fn names_file(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
pub(crate) fn names_file(path: &Path, _file: &File) -> bool {
    path.exists()
}

/// Refuses to start while a build of the same database over another number
/// of parts is writing (a single build beside a partitioned one, or over 3
/// ranks beside one over 2): each locks only its own partial files, and
/// the two would leave a whole file and parts side by side. `path` is the
/// file this writer writes, a part's name for a part. Partial files no
/// build holds are left to the build's note.
pub(crate) fn refuse_beside_a_running_build(path: &Path, part: Option<Part>) -> Result<()> {
    let (whole, parts) = match part {
        None => (path.to_owned(), 1),
        Some(part) => match crate::set::whole_path(path) {
            Some(whole) => (whole, part.parts),
            None => return Ok(()),
        },
    };
    for other in crate::set::other_partials(&whole, parts) {
        if let Some(holder) = held_by_a_build(&other) {
            return Err(DbError::Busy {
                path: other,
                holder,
            });
        }
    }
    Ok(())
}

/// Whether a running build holds the lock of the partial file `partial`:
/// `Some` with the holder's process where the system tells, `None` when
/// none does (or the file cannot be opened).
#[must_use]
pub fn held_by_a_build(partial: &Path) -> Option<Option<u32>> {
    let file = File::open(partial).ok()?;
    // Fully qualified, as in `lock_partial`. Taken and let go at once (the
    // handle is dropped) when no build holds it. Shared, not exclusive: a
    // build holds its partial files exclusively, which a shared lock meets,
    // but two probes at once (the ranks of one `--local-ranks` build each
    // look at the other builds' files) must not see each other as a build.
    match fs4::FileExt::try_lock_shared(&file) {
        Err(fs4::TryLockError::WouldBlock) => Some(lock_holder(&file)),
        _ => None,
    }
}

/// The process holding the `flock` of `file`, from `/proc/locks` (Linux;
/// `None` elsewhere or when it does not say).
pub(crate) fn lock_holder(file: &File) -> Option<u32> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt as _;
        let metadata = file.metadata().ok()?;
        let (dev, ino) = (metadata.dev(), metadata.ino());
        // glibc's `major` and `minor` of a Linux `dev_t`: an inode number
        // alone matches files of other file systems too.
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
        let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
        let locks = std::fs::read_to_string("/proc/locks").ok()?;
        // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF` (the device's
        // major and minor in hex, the inode in decimal); waiters have `->`
        // after the number.
        locks.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.get(1) != Some(&"FLOCK") {
                return None;
            }
            let mut id = fields.get(5)?.split(':');
            let file_major = u64::from_str_radix(id.next()?, 16).ok()?;
            let file_minor = u64::from_str_radix(id.next()?, 16).ok()?;
            let file_ino = id.next()?.parse::<u64>().ok()?;
            ((file_major, file_minor, file_ino) == (major, minor, ino))
                .then(|| fields.get(4)?.parse().ok())
                .flatten()
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        None
    }
}

impl Writer {
    /// Starts a build of `shape_box` into `path`, or resumes the one whose
    /// partial file is there: returns the writer and the tiers already
    /// stored (checked against their checksums; anything after the last
    /// good tier is dropped). A partial file whose header cannot be read
    /// (empty, cut, corrupt, another version) is started afresh, and
    /// [`Writer::note`] says so.
    ///
    /// # Errors
    ///
    /// [`DbError::Busy`] while another build writes `path`;
    /// [`DbError::Io`] when `path` is there and is not a regular file (a
    /// symbolic link included: the finished file would replace the link);
    /// [`DbError::BoxMismatch`] when the partial file is of another box;
    /// [`DbError::NoSpace`] and other I/O errors.
    pub fn create_or_resume(path: &Path, shape_box: ShapeBox) -> Result<(Writer, Vec<TierTable>)> {
        Writer::create_or_resume_part(path, shape_box, None)
    }

    /// As [`Writer::create_or_resume`], writing the compact format
    /// ([`VERSION`] 2, [`Writer::append_compact`]): returns the compact
    /// tiers already stored. A partial file of version 1 is started afresh.
    ///
    /// # Errors
    ///
    /// As [`Writer::create_or_resume`].
    pub fn create_or_resume_compact(
        path: &Path,
        shape_box: ShapeBox,
    ) -> Result<(Writer, Vec<CompactTier>)> {
        let (writer, sections) = Writer::open(path, shape_box, None, true, VERSION)?;
        let tiers = sections
            .into_iter()
            .zip(&writer.header.tiers)
            .map(|(mut bytes, t)| {
                bytes.truncate(t.capacity as usize);
                CompactTier::from_bytes(bytes).map_err(|e| DbError::Corrupt {
                    path: writer.partial.clone(),
                    what: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((writer, tiers))
    }

    /// A fresh build of `shape_box` into `path` in the compact format, as
    /// [`Writer::create`] (for `grundy tables convert`).
    ///
    /// # Errors
    ///
    /// As [`Writer::create`].
    pub fn create_compact(path: &Path, shape_box: ShapeBox) -> Result<Writer> {
        Writer::open(path, shape_box, None, false, VERSION).map(|(writer, _)| writer)
    }

    /// As [`Writer::create_or_resume`], for one part of a partitioned build
    /// (`None`: a whole database). A partial file of the same part (index
    /// and number of parts) is resumed whatever its build id: see
    /// [`Writer::restart`] to make the parts agree.
    ///
    /// # Errors
    ///
    /// As [`Writer::create_or_resume`]; [`DbError::PartMismatch`] when the
    /// partial file is of another part or partitioning.
    pub fn create_or_resume_part(
        path: &Path,
        shape_box: ShapeBox,
        part: Option<Part>,
    ) -> Result<(Writer, Vec<TierTable>)> {
        let (writer, sections) = Writer::open(path, shape_box, part, true, VERSION_SLOTS)?;
        let tables = sections
            .into_iter()
            .zip(&writer.header.tiers)
            .map(|(bytes, t)| {
                let slots: Vec<u64> = bytes
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect();
                TierTable::from_parts(t.positions, t.capacity, slots).map_err(|what| {
                    DbError::Corrupt {
                        path: writer.partial.clone(),
                        what,
                    }
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((writer, tables))
    }

    /// A fresh build of `shape_box` into `path` (a merge or a convert,
    /// which never resume): a partial file a stopped build left with
    /// stored tiers is refused, not discarded (the tiers may have taken
    /// hours), one with none is started afresh, one a running build holds
    /// is not touched.
    ///
    /// # Errors
    ///
    /// [`DbError::StoppedBuild`] for a partial file with stored tiers;
    /// [`DbError::Busy`] while another build writes `path`;
    /// [`DbError::Io`] when `path` is there and is not a regular file;
    /// [`DbError::NoSpace`] and other I/O errors.
    pub fn create(path: &Path, shape_box: ShapeBox) -> Result<Writer> {
        Writer::open(path, shape_box, None, false, VERSION_SLOTS).map(|(writer, _)| writer)
    }

    /// The writer, and the sections already stored when resuming (each
    /// checked against its checksum and entry).
    pub(crate) fn open(
        path: &Path,
        shape_box: ShapeBox,
        part: Option<Part>,
        resume: bool,
        version: u32,
    ) -> Result<(Writer, Vec<Vec<u8>>)> {
        refuse_to_replace(path)?;
        refuse_beside_a_running_build(path, part)?;
        let partial = partial_path(path);
        let (file, created) = lock_partial(&partial)?;
        let mut writer = Writer {
            path: path.to_owned(),
            partial,
            file,
            header: Header {
                part,
                version,
                ..Header::new(shape_box)
            },
            note: None,
            #[cfg(test)]
            space_limit: None,
        };
        if !created && !resume {
            writer.refuse_stored_tiers()?;
        }
        if created || !resume {
            writer.start_afresh()?;
            return Ok((writer, Vec::new()));
        }
        writer.resume(shape_box, part, version)
    }

    /// [`DbError::StoppedBuild`] when the partial file holds a header
    /// with stored tiers; a file without a valid header holds nothing to
    /// keep.
    fn refuse_stored_tiers(&mut self) -> Result<()> {
        let len = self.file.metadata().map_err(io(&self.partial))?.len();
        let mut head = vec![0u8; usize::try_from(len).map_or(HEADER_LEN, |l| l.min(HEADER_LEN))];
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_exact(&mut head))
            .map_err(io(&self.partial))?;
        match Header::decode_with(&head, len, &self.partial, false) {
            Ok(header) if !header.tiers.is_empty() => Err(DbError::StoppedBuild {
                path: self.partial.clone(),
                shape_box: header.shape_box,
                stored: header.tiers.len(),
                tiers: header.shape_box.cells(),
            }),
            _ => Ok(()),
        }
    }

    /// Empties the partial file and writes a header with no tiers.
    pub(crate) fn start_afresh(&mut self) -> Result<()> {
        self.header.tiers.clear();
        self.header.complete = false;
        let len = self.file.metadata().map_err(io(&self.partial))?.len();
        if len != 0 {
            self.file.set_len(0).map_err(io(&self.partial))?;
        }
        self.write_header()
    }

    pub(crate) fn resume(
        mut self,
        shape_box: ShapeBox,
        part: Option<Part>,
        version: u32,
    ) -> Result<(Writer, Vec<Vec<u8>>)> {
        let partial = self.partial.clone();
        let len = self.file.metadata().map_err(io(&partial))?.len();
        let mut head = vec![0u8; usize::try_from(len).map_or(HEADER_LEN, |l| l.min(HEADER_LEN))];
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_exact(&mut head))
            .map_err(io(&partial))?;
        let mut header = match Header::decode_with(&head, len, &partial, false) {
            Ok(header) => header,
            Err(
                err @ (DbError::NotADatabase { .. }
                | DbError::Version { .. }
                | DbError::Truncated { .. }
                | DbError::Checksum { .. }
                | DbError::Corrupt { .. }),
            ) => {
                self.note = Some(if len == 0 {
                    format!(
                        "{}: empty (0 bytes: a build stopped before writing its header, perhaps on a full disk); starting the build afresh",
                        partial.display()
                    )
                } else {
                    format!("{err}; starting the build afresh")
                });
                self.start_afresh()?;
                return Ok((self, Vec::new()));
            }
            Err(err) => return Err(err),
        };
        if header.version != version {
            self.note = Some(format!(
                "{}: a partial build in format version {}, not {version}; starting the build afresh",
                partial.display(),
                header.version
            ));
            self.start_afresh()?;
            return Ok((self, Vec::new()));
        }
        if header.shape_box != shape_box {
            return Err(DbError::BoxMismatch {
                path: partial,
                found: header.shape_box,
                expected: shape_box,
            });
        }
        let describe = |p: Option<Part>| match p {
            None => "a whole database".to_owned(),
            Some(p) => format!("part {} of {}", p.index, p.parts),
        };
        if header.part.map(|p| (p.index, p.parts)) != part.map(|p| (p.index, p.parts)) {
            return Err(DbError::PartMismatch {
                path: partial,
                found: describe(header.part),
                expected: describe(part),
            });
        }
        // A file cut short keeps the tiers whose sections it holds whole
        // (`decode_with`, not strict); the header counts the others.
        let counted = head.get(40..44).map_or(0, |b| {
            u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize
        });
        let counted = counted.max(header.tiers.len());
        if counted > header.tiers.len() {
            let tier = header.tiers.len() + 1;
            self.note = Some(format!(
                "{}: cut short ({len} bytes, without the section of tier {tier}); solving {} again",
                partial.display(),
                tiers_from(tier, counted)
            ));
        }
        header.complete = false;
        let mut tables = Vec::new();
        let mut end = ALIGN;
        let mut damage = None;
        for t in &header.tiers {
            // The padding before a section belongs to no checksum: bytes
            // there that are not zero make this section and every one after
            // it redone (appending zeroes the padding again).
            if !self.zero_between(end, t.offset)? {
                damage = Some("bytes that are not zero before it");
                break;
            }
            end = t.end();
            // The header checked the section lies within the file.
            let mut bytes = vec![0u8; t.slots as usize * 8];
            self.file
                .seek(SeekFrom::Start(t.offset))
                .and_then(|_| self.file.read_exact(&mut bytes))
                .map_err(io(&partial))?;
            // A torn or damaged section is redone, with every one after it.
            if crc32fast::hash(&bytes) != t.crc32 || check_section(version, t, &bytes).is_err() {
                damage = Some("a section that does not match its checksum");
                break;
            }
            tables.push(bytes);
        }
        if let Some(why) = damage {
            // Tiers are numbered from 1, in the order they are stored.
            let tier = tables.len() + 1;
            self.note = Some(format!(
                "{}: tier {tier} is damaged ({why}); solving {} again",
                partial.display(),
                tiers_from(tier, counted)
            ));
        }
        header.tiers.truncate(tables.len());
        self.header = header;
        self.write_header()?;
        let end = self.header.next_offset();
        self.file.set_len(end).map_err(io(&partial))?;
        Ok((self, tables))
    }

    /// What the writer did that the user should hear of: a partial file it
    /// could not resume and started afresh.
    #[must_use]
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Keeps only the first `tiers` stored tiers and sets the part's build
    /// id (a partitioned build resumes from the tier every part has, under
    /// one id).
    ///
    /// # Errors
    ///
    /// I/O errors.
    pub fn restart(&mut self, tiers: usize, build_id: u64) -> Result<()> {
        self.header.tiers.truncate(tiers);
        if let Some(part) = &mut self.header.part {
            part.build_id = build_id;
        }
        self.write_header()?;
        let end = self.header.next_offset();
        self.file.set_len(end).map_err(io(&self.partial))
    }

    /// The header as written so far.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The partial file being written.
    #[must_use]
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// Makes sure the file can grow to `end` bytes: preallocates them
    /// (`fallocate` through `fs4`), so a full disk is found before the
    /// write, with the bytes it needed. File systems without preallocation
    /// leave it to the write, whose error is mapped the same way.
    pub(crate) fn reserve(&self, end: u64) -> Result<()> {
        let len = self.file.metadata().map_err(io(&self.partial))?.len();
        let needed = end.saturating_sub(len);
        #[cfg(test)]
        if let Some(limit) = self.space_limit {
            if needed > 0 && end > limit {
                return Err(DbError::NoSpace {
                    path: self.partial.clone(),
                    needed,
                    available: Some(limit.saturating_sub(len)),
                });
            }
        }
        if needed == 0 {
            return Ok(());
        }
        match fs4::FileExt::allocate(&self.file, end) {
            Err(e) if is_no_space(&e) => Err(DbError::NoSpace {
                path: self.partial.clone(),
                needed,
                available: available_space(&self.partial),
            }),
            _ => Ok(()),
        }
    }

    pub(crate) fn write_header(&mut self) -> Result<()> {
        let bytes = self.header.encode();
        self.reserve(HEADER_LEN as u64)?;
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.write_all(&bytes))
            .and_then(|()| self.file.sync_data())
            .map_err(write_error(&self.partial, HEADER_LEN as u64))
    }

    /// Appends the next tier's table and records it in the header, each
    /// step synced to disk.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSpace`] and other I/O errors; [`DbError::Corrupt`] past
    /// the header's room for tiers.
    pub fn append(&mut self, table: &TierTable) -> Result<()> {
        if self.header.tiers.len() >= self.header.shape_box.cells().min(MAX_TIERS) {
            return Err(DbError::Corrupt {
                path: self.partial.clone(),
                what: "more tiers than the box has".into(),
            });
        }
        if self.header.version != VERSION_SLOTS {
            return Err(DbError::Corrupt {
                path: self.partial.clone(),
                what: "a table of slots for a compact file".into(),
            });
        }
        let offset = self.header.next_offset();
        let bytes: &[u8] = bytemuck::cast_slice(table.slots());
        let entry = TierEntry {
            positions: table.positions(),
            capacity: table.capacity(),
            slots: table.slots().len() as u64,
            offset,
            max_value: table.max_value(),
            crc32: crc32fast::hash(bytes),
        };
        self.append_section(entry, bytes)
    }

    pub(crate) fn append_section(&mut self, entry: TierEntry, bytes: &[u8]) -> Result<()> {
        if self.header.tiers.len() >= self.header.shape_box.cells().min(MAX_TIERS) {
            return Err(DbError::Corrupt {
                path: self.partial.clone(),
                what: "more tiers than the box has".into(),
            });
        }
        let offset = entry.offset;
        // Cut to the last section's end, then grow: the padding before the
        // new section reads as zeros whatever the file held there (a
        // resumed partial file may hold anything after its stored tiers).
        self.file
            .set_len(self.header.end())
            .and_then(|()| self.file.set_len(offset))
            .map_err(io(&self.partial))?;
        self.reserve(entry.end())?;
        self.file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| self.file.write_all(bytes))
            .and_then(|()| self.file.sync_data())
            .map_err(write_error(&self.partial, bytes.len() as u64))?;
        self.header.tiers.push(entry);
        self.write_header()
    }

    /// Appends the next tier in compact form (the bytes of
    /// [`CompactTier::build`]) to a compact-format writer and records it in
    /// the header, each step synced to disk.
    ///
    /// # Errors
    ///
    /// As [`Writer::append`]; [`DbError::Corrupt`] for bytes that are not a
    /// compact tier or a writer of version 1.
    pub fn append_compact(&mut self, tier: &[u8]) -> Result<()> {
        let corrupt = |what: String| DbError::Corrupt {
            path: self.partial.clone(),
            what,
        };
        if self.header.version != VERSION {
            return Err(corrupt(format!(
                "a compact tier for a file of format version {}",
                self.header.version
            )));
        }
        let compact = CompactTier::from_bytes(tier).map_err(|e| corrupt(e.to_string()))?;
        let mut bytes = tier.to_vec();
        bytes.resize(tier.len().next_multiple_of(8), 0);
        let entry = TierEntry {
            positions: compact.positions(),
            capacity: tier.len() as u64,
            slots: bytes.len() as u64 / 8,
            offset: self.header.next_offset(),
            max_value: compact.max_value(),
            crc32: crc32fast::hash(&bytes),
        };
        self.append_section(entry, &bytes)
    }

    /// Marks the database complete, trims it to its last section and
    /// renames it into place, syncing the file and then the directory:
    /// [`Writer::complete`], then [`Writer::publish`].
    ///
    /// # Errors
    ///
    /// As those two.
    pub fn finish(mut self) -> Result<Header> {
        self.complete()?;
        self.publish()
    }

    /// Marks the database complete and trims it to its last section, still
    /// under its partial name, synced: what only [`Writer::publish`] puts
    /// in place. The parts of a partitioned build are all completed before
    /// any is published, so that a part that cannot be leaves every part
    /// of an earlier build in place. A completed file that is never
    /// published resumes as any partial file does, with every tier stored.
    ///
    /// # Errors
    ///
    /// I/O errors; [`DbError::Incomplete`] when tiers are missing;
    /// [`DbError::Corrupt`] when the file would fail a reader's checks.
    pub fn complete(&mut self) -> Result<()> {
        if self.header.tiers.len() != self.header.shape_box.cells() {
            return Err(DbError::Incomplete {
                path: self.partial.clone(),
                stored: self.header.tiers.len(),
                tiers: self.header.shape_box.cells(),
                running: None,
            });
        }
        self.header.complete = true;
        // A resume pads the file to the next section's start: a complete
        // file ends where its last section does.
        self.file
            .set_len(self.header.end())
            .map_err(io(&self.partial))?;
        self.write_header()?;
        self.file.sync_all().map_err(io(&self.partial))?;
        // Readers check the padding as they open the file: a file that
        // would fail that check must not replace a good one at `path`.
        let mut end = ALIGN;
        for (i, t) in self.header.tiers.iter().enumerate() {
            if !self.zero_between(end, t.offset)? {
                return Err(DbError::Corrupt {
                    path: self.partial.clone(),
                    what: format!(
                        "non-zero bytes in the padding before section tier {}",
                        i + 1
                    ),
                });
            }
            end = t.end();
        }
        Ok(())
    }

    /// Renames the file [`Writer::complete`] completed into place, and
    /// syncs the directory.
    ///
    /// # Errors
    ///
    /// I/O errors; [`DbError::Incomplete`] when the file was not completed.
    pub fn publish(self) -> Result<Header> {
        if !self.header.complete {
            return Err(DbError::Incomplete {
                path: self.partial.clone(),
                stored: self.header.tiers.len(),
                tiers: self.header.shape_box.cells(),
                running: None,
            });
        }
        std::fs::rename(&self.partial, &self.path).map_err(io(&self.path))?;
        if let Some(dir) = self.path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            // Make the rename itself durable; some filesystems refuse to
            // open a directory, which only loses that guarantee.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        // The lock goes with the file, after the rename: a build that
        // opened the partial file meanwhile finds it renamed and starts a
        // new one.
        Ok(self.header)
    }

    /// Whether the partial file's bytes from `start` to `end` (less than a
    /// page of padding) are all zero.
    fn zero_between(&self, start: u64, end: u64) -> Result<bool> {
        let mut bytes = vec![0u8; usize::try_from(end.saturating_sub(start)).unwrap_or(0)];
        let mut file = &self.file;
        file.seek(SeekFrom::Start(start))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(io(&self.partial))?;
        Ok(bytes.iter().all(|&b| b == 0))
    }

    /// Tests: writes past `limit` bytes fail as on a full disk.
    #[cfg(test)]
    pub(crate) fn set_space_limit(&mut self, limit: u64) {
        self.space_limit = Some(limit);
    }
}
