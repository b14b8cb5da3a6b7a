//! Ctrl-C (SIGINT) and SIGTERM as a message on the watch loop's channel, so the loop finishes the
//! refresh it is running (artifacts are never left half-written) and exits 0.

use std::sync::mpsc::Sender;

/// Installs the handlers, then spawns a thread that sends `stop` once, on the first Ctrl-C or
/// SIGTERM. Returns an error when the handlers cannot be installed.
pub fn on_stop<M: Send + 'static>(sender: Sender<M>, stop: M) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // Registered here, before returning, so a signal sent right after start-up is caught.
    #[cfg(unix)]
    let (mut interrupt, mut terminate) = {
        use tokio::signal::unix::{SignalKind, signal};
        let _guard = runtime.enter();
        (
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
        )
    };
    std::thread::Builder::new()
        .name("doc-bridge-signals".into())
        .spawn(move || {
            runtime.block_on(async {
                #[cfg(unix)]
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
                #[cfg(not(unix))]
                let _ = tokio::signal::ctrl_c().await;
            });
            let _ = sender.send(stop);
        })?;
    Ok(())
}
