package mode

// Register lets the external tests add a mode the way the table does.
var Register = register
