//! What a duet needs of the machine: two CPUs to pin its runs to, one each.
//! (`Pairing::Duet`: which runs pair up, and on which seats, is [`crate::results::pairing`]'s.)
use std::os::unix::process::CommandExt as _;
use std::process::Command;

/// The first two CPUs this process may run on: a duet's seats 0 and 1.
pub fn cpus() -> Result<[usize; 2], String> {
    // SAFETY: cpu_set_t is plain old data; all-zero bytes are the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is writable and its size is passed.
    if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } != 0
    {
        return Err(format!(
            "--pairing duet: cannot read which CPUs this process may run on: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: CPU_ISSET reads the set in bounds for every index below CPU_SETSIZE.
    let allowed: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect();
    match allowed[..] {
        [first, second, ..] => Ok([first, second]),
        _ => Err(format!(
            "--pairing duet runs two children at once, one per CPU, and this process may run on \
             {} CPU{} only; use --pairing sequential",
            allowed.len(),
            if allowed.len() == 1 { "" } else { "s" }
        )),
    }
}

/// Pins the child `command` starts (and every thread and process it starts) to `cpu`.
pub fn pin(command: &mut Command, cpu: usize) {
    // SAFETY: the closure runs in the forked child before exec and only makes the
    // sched_setaffinity system call on a set built on its stack, allocating nothing.
    unsafe {
        command.pre_exec(move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}
