"""tiletable firmware: rules engine (engine/), drivers (drivers/), table runtime (runtime/), link framing (proto/)."""
