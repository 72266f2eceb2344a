use autograd::differentiable;

const EARTH_RADIUS_KM: f64 = 6371.0;

/// Great-circle distance between two points given in degrees.
#[differentiable]
pub fn haversine(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dphi = (lat2 - lat1).to_radians();
    let dl = (lon2 - lon1).to_radians();
    let a = (dphi / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * a.sqrt().asin()
}

pub fn check() -> Result<(), String> {
    scalar_check!(haversine, haversine_grad, 1e-6, [[51.5, -0.12, 48.85, 2.35], [40.7, -74.0, 34.05, -118.2]], (lat1, lon1, lat2, lon2))
}
