//! An arena DOM built by html5ever's tree builder: nodes in one vector, addressed by index.

/// Index of a node in [`Dom::nodes`].
pub type NodeId = u32;

/// A parsed HTML document (being written).
#[derive(Debug, Default)]
pub struct Dom {}
