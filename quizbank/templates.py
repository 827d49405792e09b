"""Which compute templates exist and which answers each gives, without importing torch.

`compute.list_templates()` promises not to import torch. Until the compute package provides it
(or if it is broken mid-change), the names and answers agreed in issue 4 stand in.
"""

FALLBACK_TEMPLATES: dict[str, frozenset[str]] = {
    "linear_residual_block": frozenset(
        {"y", "loss", "grad_y", "grad_x", "grad_x_identity", "grad_x_branch", "grad_W"}
    ),
    "gradient_multiplier": frozenset({"plain", "residual"}),
    "chain_product": frozenset({"plain", "residual"}),
    "residual_mapping": frozenset({"F"}),
    "prenorm_postnorm_jacobian": frozenset({"J_pre", "J_post"}),
    "residual_scaling": frozenset({"J", "grad_x"}),
    "deep_mlp_gradients": frozenset({"grad_norm_plain", "grad_norm_residual"}),
    "transformer_block_shapes": frozenset(
        {
            "attn_output_shape",
            "ffn_hidden_shape",
            "attn_params",
            "ffn_params",
            "layernorm_params",
            "block_params",
        }
    ),
    "projection_shortcut": frozenset({"shortcut_params"}),
    "dropout_residual": frozenset({"train_output", "expected_output"}),
    "variance_of_sum": frozenset({"var"}),
    "norm_jacobian_vector": frozenset({"ln", "ln_jvp", "rms", "rms_jvp"}),
    "residual_variance_depth": frozenset({"var_unscaled", "var_scaled"}),
    "scaled_shortcut": frozenset({"x_n", "shortcut_factor"}),
    "stochastic_depth": frozenset({"expected_depth", "survival", "test_output"}),
    "mixed_precision_sum": frozenset({"sum_fp16", "sum_bf16", "spacing_fp16", "spacing_bf16"}),
}


def known_templates() -> tuple[dict[str, frozenset[str]], str]:
    """(template name -> answer names, where that came from: "compute" or "fallback")."""
    try:
        from compute import list_templates

        listed = list_templates()
        return {t["name"]: frozenset(t["answers"]) for t in listed}, "compute"
    except Exception:  # noqa: BLE001 - a missing or half-built compute must not break validation
        return dict(FALLBACK_TEMPLATES), "fallback"
