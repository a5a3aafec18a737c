macro_rules! twice { ($e:expr) => { $e; $e } }
