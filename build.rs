// sqlx embeds the migrations at compile time; without this, adding one does not rebuild.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
